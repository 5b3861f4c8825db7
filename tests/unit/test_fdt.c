/* The flattened device tree reader (lib/fdt.c): trees built here the way QEMU's virt machine
 * lays them out, found by name and by compatible, and malformed ones refused. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/fdt.h>

/* A tiny tree writer: header, an empty reservation map, the structure, the strings. */
struct builder {
	UINT8 structure[2048];
	size_t struct_len;
	char strings[512];
	size_t strings_len;
	UINT8 blob[4096];
};

static void put32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

static void token(struct builder *b, UINT32 t)
{
	put32(b->structure + b->struct_len, t);
	b->struct_len += 4;
}

static void bytes(struct builder *b, const void *data, size_t n)
{
	memcpy(b->structure + b->struct_len, data, n);
	b->struct_len += n;
	while (b->struct_len % 4)
		b->structure[b->struct_len++] = 0;
}

static void begin(struct builder *b, const char *name)
{
	token(b, 1);
	bytes(b, name, strlen(name) + 1);
}

static void prop(struct builder *b, const char *name, const void *value, UINT32 len)
{
	UINT32 nameoff = (UINT32)b->strings_len;

	strcpy(b->strings + b->strings_len, name);
	b->strings_len += strlen(name) + 1;
	token(b, 3);
	token(b, len);
	token(b, nameoff);
	bytes(b, value, len);
}

static void prop32(struct builder *b, const char *name, UINT32 v)
{
	UINT8 cell[4];

	put32(cell, v);
	prop(b, name, cell, 4);
}

/* Lays the blob out; returns its size. */
static size_t finish(struct builder *b)
{
	size_t struct_off = 40 + 16, strings_off = struct_off + b->struct_len;
	size_t total = strings_off + b->strings_len;

	memset(b->blob, 0, sizeof(b->blob));
	put32(b->blob, 0xd00dfeed);
	put32(b->blob + 4, (UINT32)total);
	put32(b->blob + 8, (UINT32)struct_off);
	put32(b->blob + 12, (UINT32)strings_off);
	put32(b->blob + 16, 40);
	put32(b->blob + 20, 17);
	put32(b->blob + 24, 16);
	put32(b->blob + 32, (UINT32)b->strings_len);
	put32(b->blob + 36, (UINT32)b->struct_len);
	memcpy(b->blob + struct_off, b->structure, b->struct_len);
	memcpy(b->blob + strings_off, b->strings, b->strings_len);
	return total;
}

/* A tree like virt's: root cells, memory, a PL011 with two compatibles, psci. */
static size_t virt_tree(struct builder *b)
{
	static const UINT8 reg[] = {0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0};
	static const UINT8 uart_reg[] = {0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0};
	static const char uart_compat[] = "arm,pl011\0arm,primecell";

	memset(b, 0, sizeof(*b));
	begin(b, "");
	prop32(b, "#address-cells", 2);
	prop32(b, "#size-cells", 2);
	begin(b, "psci");
	prop(b, "method", "hvc", 4);
	token(b, 2);
	begin(b, "memory@40000000");
	prop(b, "device_type", "memory", 7);
	prop(b, "reg", reg, sizeof(reg));
	token(b, 2);
	begin(b, "pl011@9000000");
	prop(b, "reg", uart_reg, sizeof(uart_reg));
	prop(b, "compatible", uart_compat, sizeof(uart_compat));
	token(b, 2);
	token(b, 2);
	token(b, 9);
	return finish(b);
}

static struct builder tree_builder;

TEST(fdt_finds_nodes_by_name_and_compatible)
{
	struct builder *b = &tree_builder;
	size_t size = virt_tree(b);
	struct fdt f;
	const void *value;
	UINT32 len;
	UINT64 address, length;
	long root, memory, uart;

	ASSERT(fdt_open(&f, b->blob, size));
	/* The root node is the first one: a search must look at it too. */
	root = fdt_find_node(&f, -1, "", NULL);
	ASSERT_EQ(root, 0);
	ASSERT(fdt_get_prop(&f, root, "#size-cells", &value, &len));
	EXPECT_EQ(len, 4);
	memory = fdt_find_node(&f, -1, "memory", NULL);
	ASSERT(memory > 0);
	ASSERT(fdt_get_reg(&f, memory, 2, 2, 0, &address, &length));
	EXPECT_EQ(address, 0x40000000ULL);
	EXPECT_EQ(length, 0x40000000ULL);
	EXPECT(!fdt_get_reg(&f, memory, 2, 2, 1, &address, &length));
	uart = fdt_find_node(&f, -1, NULL, "arm,primecell");
	EXPECT_EQ(uart, fdt_find_node(&f, -1, NULL, "arm,pl011"));
	ASSERT(fdt_get_reg(&f, uart, 2, 2, 0, &address, &length));
	EXPECT_EQ(address, 0x09000000ULL);
	EXPECT_EQ(length, 0x1000ULL);
	EXPECT(fdt_find_node(&f, uart, NULL, "arm,pl011") < 0);
	EXPECT(fdt_find_node(&f, -1, NULL, "arm,pl01") < 0);
	EXPECT(fdt_find_node(&f, -1, "memory@4", NULL) < 0);
	ASSERT(fdt_get_prop(&f, fdt_find_node(&f, -1, "psci", NULL), "method", &value, &len));
	EXPECT(len == 4 && memcmp(value, "hvc", 4) == 0);
	EXPECT(!fdt_get_prop(&f, memory, "compatible", &value, &len));
}

TEST(fdt_refuses_bad_headers)
{
	struct builder *b = &tree_builder;
	size_t size = virt_tree(b);
	struct fdt f;

	EXPECT(!fdt_open(&f, b->blob, 39));
	EXPECT(!fdt_open(&f, b->blob, size - 1)); /* totalsize beyond what was given */
	b->blob[0] ^= 1;
	EXPECT(!fdt_open(&f, b->blob, size));
	b->blob[0] ^= 1;
	put32(b->blob + 24, 17); /* incompatible with version 16 */
	EXPECT(!fdt_open(&f, b->blob, size));
	put32(b->blob + 24, 16);
	put32(b->blob + 36, (UINT32)size); /* structure block past the end */
	EXPECT(!fdt_open(&f, b->blob, size));
}

TEST(fdt_refuses_a_property_longer_than_the_block)
{
	struct builder *b = &tree_builder;
	size_t size = virt_tree(b);
	struct fdt f;
	const void *value;
	UINT32 len;

	/* The root's first property (#address-cells) claims a huge value. */
	put32(b->blob + 56 + 8 + 4, 0x7ffffff0);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(!fdt_get_prop(&f, 0, "#address-cells", &value, &len));
	EXPECT(fdt_find_node(&f, -1, "memory", NULL) < 0);
}

TEST(fdt_refuses_an_unterminated_node_name)
{
	struct builder *b = &tree_builder;
	struct fdt f;
	size_t size;

	memset(b, 0, sizeof(*b));
	token(b, 1);
	memcpy(b->structure + b->struct_len, "abcd", 4); /* no NUL inside the block */
	b->struct_len += 4;
	size = finish(b);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(fdt_find_node(&f, -1, "abcd", NULL) < 0);
	EXPECT(fdt_find_node(&f, -1, NULL, "x") < 0);
}
