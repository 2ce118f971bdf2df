#!/usr/bin/env python3
"""fake_console.py - a pretend kernel and shell on stdin/stdout, for
tests/host/console_session.sh: boots to "fake:/# ", then answers
  echo WORDS   WORDS          wrap TEXT   the echo wrapped at column 20
  panic        a panic line   hang        nothing, ever again
  exit N       "kernel-exit: status=N", then ends
Every typed line is echoed back, as a shell's line editing does."""
import os, sys, time


def lines():
    """Typed lines: Enter is a carriage return, as on a serial console."""
    line = b''
    while True:
        c = os.read(0, 1)
        if not c:
            return
        if c in b'\r\n':
            yield line.decode('latin-1')
            line = b''
        else:
            line += c


out = sys.stdout
out.write('booting\r\nfake:/# ')
out.flush()
for line in lines():
    echo = line if not line.startswith('wrap ') else '\n'.join(line[i:i + 20] for i in range(0, len(line), 20))
    out.write(echo + '\r\n')
    word, _, rest = line.partition(' ')
    if word == 'echo':
        out.write(rest + '\r\n')
    elif word == 'wrap':
        out.write('wrapped\r\n')
    elif word == 'panic':
        out.write('panic: fake: the test asked for it\r\n')
    elif word == 'hang':
        out.flush()
        time.sleep(3600)
    elif word == 'exit':
        out.write('kernel-exit: status=%s\r\n' % rest)
        out.flush()
        sys.exit(0)
    out.write('fake:/# ')
    out.flush()
