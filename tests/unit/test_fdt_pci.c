/* The generic ECAM host bridge node (lib/fdt_pci.c): virt's own node read whole (ECAM,
 * buses, the I/O, 32-bit and 64-bit windows, dma-coherent), and the nodes it must refuse or
 * trim: short ECAM ranges, bad bus ranges and cells, translated or wrapping windows. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/fdt_pci.h>

/* A tree of a root (#address-cells 2, #size-cells 2) and one pcie node with the properties
 * given; the strings block holds each name once per property. */
struct tree {
	UINT8 blob[1024];
	size_t len; /* of the structure block so far */
	UINT8 structure[768];
	char strings[256];
	size_t strings_len;
};

static void put32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

static void emit(struct tree *t, const void *data, size_t n)
{
	memcpy(t->structure + t->len, data, n);
	t->len += n;
	while (t->len % 4)
		t->structure[t->len++] = 0;
}

static void token(struct tree *t, UINT32 v)
{
	UINT8 b[4];

	put32(b, v);
	emit(t, b, 4);
}

/* A property of big-endian cells. */
static void prop(struct tree *t, const char *name, const UINT32 *cells, size_t count)
{
	token(t, 3);
	token(t, (UINT32)(count * 4));
	token(t, (UINT32)t->strings_len);
	strcpy(t->strings + t->strings_len, name);
	t->strings_len += strlen(name) + 1;
	for (size_t i = 0; i < count; i++)
		token(t, cells[i]);
}

static void begin(struct tree *t, const char *name)
{
	static const UINT32 two = 2;

	memset(t, 0, sizeof(*t));
	token(t, 1);
	emit(t, "", 1);
	prop(t, "#address-cells", &two, 1);
	prop(t, "#size-cells", &two, 1);
	token(t, 1);
	emit(t, name, strlen(name) + 1);
}

static void finish(struct tree *t, struct fdt *f, long *node)
{
	size_t struct_off = 40 + 16, strings_off;

	token(t, 2);
	token(t, 2);
	token(t, 9);
	strings_off = struct_off + t->len;
	put32(t->blob, 0xd00dfeed);
	put32(t->blob + 4, (UINT32)(strings_off + t->strings_len));
	put32(t->blob + 8, (UINT32)struct_off);
	put32(t->blob + 12, (UINT32)strings_off);
	put32(t->blob + 16, 40);
	put32(t->blob + 20, 17);
	put32(t->blob + 24, 16);
	put32(t->blob + 32, (UINT32)t->strings_len);
	put32(t->blob + 36, (UINT32)t->len);
	memcpy(t->blob + struct_off, t->structure, t->len);
	memcpy(t->blob + strings_off, t->strings, t->strings_len);
	ASSERT(fdt_open(f, t->blob, sizeof(t->blob)));
	*node = fdt_find_node(f, -1, "pcie", NULL);
	ASSERT(*node >= 0);
}

/* QEMU 7.2 virt's node (cortex-a57, highmem): ECAM at 256 GiB, 256 buses. */
static const UINT32 virt_reg[] = {0x40, 0x10000000, 0, 0x10000000};
static const UINT32 virt_bus_range[] = {0, 0xff};
static const UINT32 virt_ranges[] = {
    0x01000000, 0,    0,	  0,	0x3eff0000, 0,	  0x10000,    /* I/O */
    0x02000000, 0,    0x10000000, 0,	0x10000000, 0,	  0x2eff0000, /* 32-bit memory */
    0x03000000, 0x80, 0,	  0x80, 0,	    0x80, 0,	      /* 64-bit memory */
};
static const UINT32 three = 3, two = 2;

static void virt_node(struct tree *t, const UINT32 *reg, const UINT32 *ranges, size_t nranges)
{
	begin(t, "pcie@10000000");
	prop(t, "#address-cells", &three, 1);
	prop(t, "#size-cells", &two, 1);
	prop(t, "reg", reg, 4);
	prop(t, "bus-range", virt_bus_range, 2);
	prop(t, "ranges", ranges, nranges);
}

static struct tree tree;

TEST(fdt_pci_reads_virts_host_bridge)
{
	struct fdt f;
	struct fdt_pci_host host;
	long node;

	virt_node(&tree, virt_reg, virt_ranges, 21);
	prop(&tree, "dma-coherent", NULL, 0);
	finish(&tree, &f, &node);
	ASSERT(fdt_pci_host_read(&f, node, 2, 2, &host));
	EXPECT_EQ(host.ecam_base, 0x4010000000ULL);
	EXPECT_EQ(host.ecam_size, 0x10000000ULL);
	EXPECT_EQ(host.bus_first, 0);
	EXPECT_EQ(host.bus_last, 255);
	EXPECT(host.io.pci_base == 0 && host.io.cpu_base == 0x3eff0000 && host.io.size == 0x10000);
	EXPECT(host.mem32.pci_base == 0x10000000 && host.mem32.cpu_base == 0x10000000 &&
	       host.mem32.size == 0x2eff0000);
	EXPECT(host.mem64.pci_base == 0x8000000000ULL && host.mem64.size == 0x8000000000ULL);
	EXPECT(host.dma_coherent);
}

/* virt without highmem: ECAM of 16 buses at 0x3f000000, no 64-bit window. */
TEST(fdt_pci_cuts_the_bus_range_to_the_ecam_and_drops_bad_windows)
{
	static const UINT32 low_reg[] = {0, 0x3f000000, 0, 0x01000000};
	static const UINT32 ranges[] = {
	    0x02000000, 0, 0x10000000, 0,	   0x20000000, 0, 0x1000, /* translated */
	    0x02000000, 0, 0xfffff000, 0,	   0xfffff000, 0, 0x2000, /* past 4 GiB */
	    0x03000000, 0, 0,	       0xffffffff, 0xfffff000, 0, 0x2000, /* wraps */
	};
	struct fdt f;
	struct fdt_pci_host host;
	long node;

	virt_node(&tree, low_reg, ranges, 21);
	finish(&tree, &f, &node);
	ASSERT(fdt_pci_host_read(&f, node, 2, 2, &host));
	EXPECT_EQ(host.bus_first, 0);
	EXPECT_EQ(host.bus_last, 15);
	EXPECT_EQ(host.io.size, 0);
	EXPECT_EQ(host.mem32.size, 0);
	EXPECT_EQ(host.mem64.size, 0);
	EXPECT(!host.dma_coherent);
}

TEST(fdt_pci_refuses_what_it_cannot_use)
{
	static const UINT32 small_reg[] = {0, 0x3f000000, 0, 0x80000};
	static const UINT32 bad_bus[] = {5, 4};
	struct fdt f;
	struct fdt_pci_host host;
	long node;

	virt_node(&tree, small_reg, virt_ranges, 21); /* less than one bus of ECAM */
	finish(&tree, &f, &node);
	EXPECT(!fdt_pci_host_read(&f, node, 2, 2, &host));
	virt_node(&tree, virt_reg, virt_ranges, 20); /* a cell short */
	finish(&tree, &f, &node);
	EXPECT(!fdt_pci_host_read(&f, node, 2, 2, &host));
	virt_node(&tree, virt_reg, virt_ranges, 21);
	finish(&tree, &f, &node);
	EXPECT(!fdt_pci_host_read(&f, node, 3, 2, &host)); /* parent cells out of range */
	begin(&tree, "pcie@10000000");			   /* #address-cells not 3 */
	prop(&tree, "#address-cells", &two, 1);
	prop(&tree, "reg", virt_reg, 4);
	finish(&tree, &f, &node);
	EXPECT(!fdt_pci_host_read(&f, node, 2, 2, &host));
	begin(&tree, "pcie@10000000"); /* first bus above the last */
	prop(&tree, "reg", virt_reg, 4);
	prop(&tree, "bus-range", bad_bus, 2);
	finish(&tree, &f, &node);
	EXPECT(!fdt_pci_host_read(&f, node, 2, 2, &host));
}
