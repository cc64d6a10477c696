"""Tar fixtures for tests/unit/archives.test.ts, written by Python's tarfile (an independent writer): three
csp_visible prediction CIFs under a path longer than ustar's 100-byte name field, in GNU format (long names as
'L' records, an uncompressed .tar) and pax format (long names as 'x' path records, gzipped: .tar.gz).
Run with Debian's /usr/bin/python3 from the repository root; the output is deterministic (fixed mtime, no owner)."""
import gzip
import io
import tarfile
from pathlib import Path

SRC = Path('tests/reference/golden/generations/csp_visible/pred')
OUT = Path('tests/reference/archives')
NAMES = ['gate-mp-979426.cif', 'gate-mp-979432.cif', 'gate-mp-983609.cif']
DEEP = './crystallm_samples/' + 'a_folder_name_long_enough_to_need_more_than_one_hundred_bytes_in_a_tar_header/' * 2


def build(fmt):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=fmt) as tar:
        for name in NAMES:
            data = (SRC / name).read_bytes()
            info = tarfile.TarInfo(DEEP + name)
            info.size = len(data)
            info.mtime = 1700000000
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


OUT.mkdir(parents=True, exist_ok=True)
(OUT / 'gnu-long-names.tar').write_bytes(build(tarfile.GNU_FORMAT))
with open(OUT / 'pax-long-names.tar.gz', 'wb') as f:
    with gzip.GzipFile(fileobj=f, mode='wb', mtime=0, filename='') as gz:
        gz.write(build(tarfile.PAX_FORMAT))
