" SPDX-License-Identifier: GPL-2.0-or-later
" Vim syntax file
" Language:	kvmtrace_format classic rule files ("ID TEMPLATE" lines;
"		kvmtrace_format-formats(5))
" Installed by `make install` under $(datadir)/vim/vimfiles; files named
" formats, *.formats and formats/kvmtrace get it (ftdetect), others with
" :setfiletype kvmtrace_format

if exists('b:current_syntax')
  finish
endif

" '#' in column 0 starts a comment; anything else is a rule
syn match ktfComment	'^#.*$' contains=ktfTodo,@Spell
syn keyword ktfTodo	contained TODO FIXME XXX NOTE

" the ID at the start of a rule: a number (hex, octal, decimal), a name,
" system:name, a glob, or *
syn match ktfId		'^[^#[:space:]]\S*' nextgroup=ktfTemplate skipwhite
syn match ktfIdNumber	'^\%(0[xX]\x\+\|0\o*\|[1-9]\d*\)\ze\%(\s\|$\)' nextgroup=ktfTemplate skipwhite
syn match ktfIdGlob	'^\S*[*?[]\S*' nextgroup=ktfTemplate skipwhite

" the template: text with Python %-conversions
syn match ktfTemplate	'.*$' contained contains=ktfConversion,ktfPercent,ktfBadConversion
syn match ktfPercent	'%%' contained
syn match ktfBadConversion	'%[^%(]' contained
syn match ktfConversion	'%([^)]*)[#0 +-]*\%(\*\|\d\+\)\=\%(\.\%(\*\|\d\+\)\)\=[diouxXeEfFgGsrac]' contained contains=ktfKey
syn match ktfKey	'(\zs[^)]*\ze)' contained

hi def link ktfComment		Comment
hi def link ktfTodo		Todo
hi def link ktfId		Identifier
hi def link ktfIdNumber		Number
hi def link ktfIdGlob		Special
hi def link ktfConversion	Special
hi def link ktfKey		Type
hi def link ktfPercent		SpecialChar
hi def link ktfBadConversion	Error

let b:current_syntax = 'kvmtrace_format'
