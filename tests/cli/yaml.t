# YAML rule files and the shipped formats
yaml/*
