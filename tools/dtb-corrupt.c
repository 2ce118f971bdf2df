/*
 * dtb-corrupt.c - make a device tree that QEMU still loads but that is
 * structurally broken, to test the kernel's boot error:
 *
 *   dtb-corrupt IN.dtb OUT.dtb
 *
 * The name offset of the last property of the last node is pointed far
 * outside the strings block. QEMU's loader does not walk the whole
 * structure block, so it passes the blob on; the kernel must refuse it.
 * Built on the host against libfdt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libfdt.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	int node, last_prop = -1;
	size_t n;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s IN.dtb OUT.dtb\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || (n = fread(buf, 1, sizeof(buf), f)) == 0) {
		perror(argv[1]);
		return 1;
	}
	fclose(f);
	if (fdt_check_header(buf)) {
		fprintf(stderr, "%s: not a device tree\n", argv[1]);
		return 1;
	}
	for (node = 0; node >= 0; node = fdt_next_node(buf, node, NULL)) {
		int prop;

		fdt_for_each_property_offset(prop, buf, node)
			last_prop = prop;
	}
	if (last_prop < 0) {
		fprintf(stderr, "%s: no property to corrupt\n", argv[1]);
		return 1;
	}
	/* struct fdt_property: tag, len, nameoff (big-endian u32 each). */
	unsigned off = fdt_off_dt_struct(buf) + last_prop + 8;
	unsigned bad = fdt_size_dt_strings(buf) + 0x7000;

	buf[off] = bad >> 24;
	buf[off + 1] = bad >> 16;
	buf[off + 2] = bad >> 8;
	buf[off + 3] = bad;
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, n, f) != n) {
		perror(argv[2]);
		return 1;
	}
	fclose(f);
	return 0;
}
