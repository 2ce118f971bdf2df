#!/usr/bin/env python3
# busybox-applets.py BUSYBOX - print the applet names of a busybox binary,
# one a line. busybox keeps them as one sorted run of NUL-terminated
# strings starting "[", "[[" (its applet_names table), so the list always
# matches the binary, which we cannot run on the host.
import re, sys
data = open(sys.argv[1], 'rb').read()
start = data.find(b'[\0[[\0')
if start < 0:
    sys.exit('busybox-applets: no applet table in ' + sys.argv[1])
names, pos = [], start
while True:
    end = data.index(b'\0', pos)
    name = data[pos:end]
    if not re.fullmatch(rb'[a-z0-9_.\-\[\]]+', name):
        break
    names.append(name.decode())
    pos = end + 1
if len(names) < 20 or names != sorted(names):
    sys.exit('busybox-applets: the applet table of %s looks wrong (%d names)' % (sys.argv[1], len(names)))
print('\n'.join(names))
