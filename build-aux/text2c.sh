#!/bin/sh
# text2c.sh NAME FILE: FILE as a C string NAME_text[] and its length NAME_len.
set -e
name=$1
file=$2
echo "/* generated from $(basename "$file") by text2c.sh; do not edit */"
echo "#include <stddef.h>"
echo "const char ${name}_text[] ="
LC_ALL=C sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/	/\\t/g' -e 's/^/	"/' -e 's/$/\\n"/' "$file"
echo "	;"
echo "const size_t ${name}_len = sizeof(${name}_text) - 1;"
