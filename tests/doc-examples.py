#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# doc-examples.py — run the examples of the documents as tests (TAP).
#
# The examples are read from the documents themselves, never copied here:
#
#   README             blocks indented by 4 spaces after an empty line
#   doc/*.1, doc/*.5   .nf/.fi and .EX/.EE blocks (groff escapes undone)
#   formats/*          comment blocks indented by 2+ spaces after "#"
#
# In a block:
#
#   - a first line "# NAME" or "# NAME: …" (NAME a file name with a dot,
#     or formats, or rules) makes the block the file NAME, which every
#     example of that document can use;
#   - a line starting with "kvmtrace_format" is a command: it must exit 0,
#     write no warning or error on stderr and something on stdout (unless
#     it redirects its output); a line ending in "\" goes on on the next
#     line;
#   - a line "$ COMMAND" is a command whose output (stdout and stderr) is
#     the lines after it up to the next command or the block's end, exactly;
#     it must exit 0 unless that output has a "kvmtrace_format:" message.
#
# Commands run with bash -o pipefail in a fresh directory per document where
# the input names the documents use stand for committed fixtures (the table
# below), kvmtrace_format is $KTF, and $KVMTRACE_FORMAT_PATH is formats/.
# Lines of synopsis ("[OPTIONS]") are not commands.
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Names used in the documents -> fixtures (relative to tests/fixtures).
FIXTURES = {
    'trace.bin': 'kvmtrace/sample.bin',
    'trace.kvmtrace.0': 'kvmtrace/vm.kvmtrace.0',
    'trace.kvmtrace.1': 'kvmtrace/vm.kvmtrace.1',
    'exits.kvmtrace': 'yaml/exits.kvmtrace',
    # a real recording with three kvm_write_tsc_offset events, and a guest
    # stamped as a non-nested guest of it would be (so --tsc-offset auto
    # aligns them: tests/cli/merge/generated-auto)
    'host.dat': 'tracedat/host-kvm-tsc-change.dat',
    'guest.kvmtrace': 'merge/guest-offsets.kvmtrace',
    # no guest trace.dat on the TSC was recorded here: that stream stands in
    'guest.dat': 'merge/guest-offsets.kvmtrace',
    # trace-cmd's host-guest mode: a host and its self-shifted guest
    'trace.dat': 'hostguest/host7.dat',
    'trace-vm.dat': 'hostguest/guest-b7.dat',
    'app.uftrace.data': 'uftrace/plain',
    'app-cxx.uftrace.data': 'uftrace/ktf-cxx',
    'app-rust.uftrace.data': 'uftrace/ktf-rust-v0',
    # --stats examples
    'System.map': 'exits/guest.kallsyms',
    'trace.kvmtrace': 'yaml/exits.kvmtrace',
    'uftrace.data': 'uftrace/plain',
    # a TSC-stamped (rftrace) guest
    'guest.uftrace.data': 'uftrace-gen/rftrace',
    # QEMU: a trace.dat on CLOCK_MONOTONIC and a simple trace between its
    # events (tests/gen/gen-qemu-mono.py, gen-qemu-simple.py); a log
    'host-mono.dat': 'qemu/host-mono.dat',
    'trace-qemu': 'qemu/simple-mono.bin',
    'qemu.log': 'qemu-log/kvm72.qlog',
    'guest.uftrace': 'uftrace-gen/rftrace',
    # a guest's symbols (--guest-syms) and a host with kvm_exit/kvm_entry
    'System.map': 'exits/guest.kallsyms',
    'host-exits.dat': 'exits/host-exits.dat',
    # saved --stats=json of two hosts (the README's "Many hosts")
    'host-a.json': 'exits/host-a.stats.json',
    'host-b.json': 'exits/host-b7.stats.json',
    # perf.data: a recording here, and generated exit/entry pairs
    'kvm.data': 'perf/kvm.data',
    'perf.data.guest': 'perf/gen-stats.data',
    'stat.txt': 'perfstat/stat-x-comma.txt',
    # a program given as a trace (refused by its ELF signature)
    'vmlinux': 'exits/guest.elf',
}
# A file the documents use without defining it: the shipped one.
SHIPPED = {'formats': 'formats/kvmtrace'}

# The alignment report every run with a guest ends with on stderr (clock.c:
# clock_report()); with the stand-in fixtures above it may warn that the
# guest does not fit the host. It is not a failure of the example.
ALIGN_RE = re.compile(rb'^kvmtrace_format: (warning: )?[^:]+: (offsets? |no offset|'
                      rb'on the host clock |only [0-9.]+% of its aligned span|'
                      rb'its vCPUs disagree)')

# "# NAME" or "# NAME: what it is", NAME with a dot, or formats or rules
FILE_RE = re.compile(r'^# ([A-Za-z0-9_][A-Za-z0-9_-]*\.[A-Za-z0-9_.-]+|formats|rules)(:.*)?$')


def readme_blocks(text):
    """Blocks of lines indented by 4+ spaces that follow an empty line."""
    blocks, cur, prev_blank = [], None, True
    for no, line in enumerate(text.split('\n'), 1):
        if line.startswith('    ') and (cur is not None or prev_blank):
            if cur is None:
                cur = []
                blocks.append(cur)
            cur.append((no, line[4:]))
        else:
            cur = None
        prev_blank = not line.strip()
    return blocks


def groff_unescape(s):
    s = s.replace('\\-', '-').replace('\\e', '\\').replace('\\(dq', '"')
    s = s.replace('\\(aq', "'").replace('\\&', '').replace('\\ ', ' ')
    s = re.sub(r'\\f[BIRP]', '', s)
    return s


def man_blocks(text):
    blocks, cur = [], None
    for no, line in enumerate(text.split('\n'), 1):
        if line in ('.nf', '.EX'):
            cur = []
            blocks.append(cur)
        elif line in ('.fi', '.EE'):
            cur = None
        elif cur is not None:
            if line.startswith('.') or line.startswith("'"):
                continue    # .RS, .RE, .PP inside the block
            cur.append((no, groff_unescape(line)))
    return blocks


def comment_blocks(text):
    """Comment lines '#   …' (2+ spaces) after a '#' line, as blocks."""
    blocks, cur, prev_blank = [], None, True
    for no, line in enumerate(text.split('\n'), 1):
        if not line.startswith('#'):
            cur, prev_blank = None, True
            continue
        body = line[1:]
        if body.startswith('  ') and body.strip() and \
                (cur is not None or prev_blank):
            if cur is None:
                cur = []
                blocks.append(cur)
                indent = len(body) - len(body.lstrip(' '))
            cur.append((no, body[indent:].rstrip()))
        else:
            cur = None
        prev_blank = not body.strip()
    return blocks


def examples(blocks):
    """(files, commands): files {name: text}; commands (line, cmd, want)."""
    files, cmds = {}, []
    for b in blocks:
        if not b:
            continue
        m = FILE_RE.match(b[0][1])
        if m and not b[0][1].startswith('# kvmtrace_format'):
            files[m.group(1)] = '\n'.join(l for _, l in b) + '\n'
            continue
        i = 0
        while i < len(b):
            no, line = b[i]
            shown = line.startswith('$ ')
            if not (shown or re.match(r'kvmtrace_format(\s|$)', line)):
                i += 1
                continue
            cmd = line[2:] if shown else line
            while cmd.endswith('\\') and i + 1 < len(b):
                i += 1
                cmd = cmd[:-1].rstrip() + ' ' + b[i][1].strip()
            i += 1
            want = None
            if shown:
                want = []
                while i < len(b) and not b[i][1].startswith('$ '):
                    want.append(b[i][1])
                    i += 1
            if re.search(r'\[[A-Z]', cmd):
                continue    # a synopsis
            cmds.append((no, cmd, want))
    return files, cmds


def needs(cmd, srcdir):
    """'tracecmd', 'yaml', 'libiberty' or None: what the command needs."""
    words = cmd.split()
    if re.search(r'app-(cxx|rust)', cmd) and \
            not os.environ.get('KTF_HAVE_LIBIBERTY'):
        return 'libiberty'
    for w in words:
        base = w.strip('<>"\'')
        target = FIXTURES.get(base, '')
        if base.endswith('.dat') or target.endswith('.dat'):
            if not os.environ.get('KTF_HAVE_TRACECMD'):
                return 'tracecmd'
    for j, w in enumerate(words):
        y = w.endswith('.yaml') or w.endswith('.yml')
        if w == '-f' and j + 1 < len(words):
            y = y or os.path.exists(os.path.join(srcdir, 'formats',
                                                 words[j + 1] + '.yaml'))
        if y and not os.environ.get('KTF_HAVE_YAML'):
            return 'yaml'
    return None


def main():
    srcdir = os.environ.get('KTF_SRCDIR') or \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ktf = os.environ['KTF']
    docs = [('README', readme_blocks)]
    for d in sorted(os.listdir(os.path.join(srcdir, 'doc'))):
        if re.search(r'\.[1-8]$', d):
            docs.append(('doc/' + d, man_blocks))
    for d in sorted(os.listdir(os.path.join(srcdir, 'formats'))):
        docs.append(('formats/' + d, comment_blocks))

    plan = []
    for doc, parse in docs:
        with open(os.path.join(srcdir, doc), encoding='utf-8') as f:
            files, cmds = examples(parse(f.read()))
        for no, cmd, want in cmds:
            plan.append((doc, files, no, cmd, want))
    print('1..%d' % len(plan))
    if not plan:
        print('Bail out! no examples found')
        return 99

    top = tempfile.mkdtemp(prefix='ktf-doc.')
    bindir = os.path.join(top, 'bin')
    os.mkdir(bindir)
    with open(os.path.join(bindir, 'kvmtrace_format'), 'w') as f:
        f.write('#!/bin/sh\nexec "$KTF" "$@"\n')
    os.chmod(os.path.join(bindir, 'kvmtrace_format'), 0o755)
    env = dict(os.environ)
    env['PATH'] = bindir + os.pathsep + env.get('PATH', '/usr/bin:/bin')
    env['KTF'] = ktf
    env['KVMTRACE_FORMAT_PATH'] = os.path.join(srcdir, 'formats')
    env['LC_ALL'] = 'C'
    failed = 0
    try:
        for n, (doc, files, no, cmd, want) in enumerate(plan, 1):
            name = '%s:%d: %s' % (doc, no, cmd)
            why = needs(cmd, srcdir)
            if why:
                print('ok %d - %s # SKIP built without %s' % (n, name, why))
                continue
            work = os.path.join(top, 'w%d' % n)
            os.mkdir(work)
            for k, v in FIXTURES.items():
                os.symlink(os.path.join(srcdir, 'tests', 'fixtures', v),
                           os.path.join(work, k))
            for k, v in SHIPPED.items():
                os.symlink(os.path.join(srcdir, v), os.path.join(work, k))
            for k, v in files.items():
                if os.path.lexists(os.path.join(work, k)):
                    os.unlink(os.path.join(work, k))
                with open(os.path.join(work, k), 'w') as f:
                    f.write(v)
            if want is None:
                p = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd],
                                   cwd=work, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
                out = p.stdout
                err = b''.join(l for l in p.stderr.splitlines(True)
                               if not ALIGN_RE.match(l))
                redirected = re.search(r'(^|\s)(>|-o\s)', cmd)
                bad = []
                if p.returncode != 0:
                    bad.append('exit status %d' % p.returncode)
                # notes (such as the alignment report of a guest) may go
                # to stderr; warnings and errors may not
                if re.search(rb'warning|error|cannot|refused', err, re.I):
                    bad.append('a warning or error on stderr')
                if not out and not redirected:
                    bad.append('no output')
            else:
                p = subprocess.run(['bash', '-o', 'pipefail', '-c',
                                    cmd + ' 2>&1'],
                                   cwd=work, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                out, err = p.stdout, b''
                got = out.decode('utf-8', 'replace').split('\n')
                if got and got[-1] == '':
                    got.pop()
                diag = any(l.startswith('kvmtrace_format: ') for l in want)
                bad = []
                if got != want:
                    bad.append('output differs')
                if (p.returncode != 0) != diag:
                    bad.append('exit status %d' % p.returncode)
            if bad:
                failed += 1
                print('not ok %d - %s' % (n, name))
                print('# %s' % ', '.join(bad))
                if want is not None:
                    for l in want:
                        print('# want: %s' % l)
                for l in out.decode('utf-8', 'replace').split('\n')[:20]:
                    print('# out:  %s' % l)
                for l in err.decode('utf-8', 'replace').split('\n')[:10]:
                    print('# err:  %s' % l)
            else:
                print('ok %d - %s' % (n, name))
            shutil.rmtree(work)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
