" SPDX-License-Identifier: GPL-2.0-or-later
" kvmtrace_format classic rule files (YAML rule files stay yaml)
au BufNewFile,BufRead formats,*.formats,*/kvmtrace_format/formats/kvmtrace,*/formats/kvmtrace setfiletype kvmtrace_format
