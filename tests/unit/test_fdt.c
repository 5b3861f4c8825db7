/* The flattened device tree reader (lib/fdt.c): trees built here the way QEMU's virt machine
 * lays them out, found by name and by compatible, and malformed ones refused. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/fdt.h>
#include "support/fdt_builder.h"

/* A tree like virt's: root cells, memory, a PL011 with two compatibles, psci. */
static size_t virt_tree(struct fdt_builder *b)
{
	static const UINT8 reg[] = {0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0};
	static const UINT8 uart_reg[] = {0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0};
	static const char uart_compat[] = "arm,pl011\0arm,primecell";

	memset(b, 0, sizeof(*b));
	fdtb_begin(b, "");
	fdtb_prop32(b, "#address-cells", 2);
	fdtb_prop32(b, "#size-cells", 2);
	fdtb_begin(b, "psci");
	fdtb_prop(b, "method", "hvc", 4);
	fdtb_end(b);
	fdtb_begin(b, "memory@40000000");
	fdtb_prop(b, "device_type", "memory", 7);
	fdtb_prop(b, "reg", reg, sizeof(reg));
	fdtb_end(b);
	fdtb_begin(b, "pl011@9000000");
	fdtb_prop(b, "reg", uart_reg, sizeof(uart_reg));
	fdtb_prop(b, "compatible", uart_compat, sizeof(uart_compat));
	fdtb_end(b);
	fdtb_end(b);
	fdtb_token(b, 9);
	return fdtb_finish(b);
}

static struct fdt_builder tree_builder;

TEST(fdt_finds_nodes_by_name_and_compatible)
{
	struct fdt_builder *b = &tree_builder;
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
	struct fdt_builder *b = &tree_builder;
	size_t size = virt_tree(b);
	struct fdt f;

	EXPECT(!fdt_open(&f, b->blob, 39));
	EXPECT(!fdt_open(&f, b->blob, size - 1)); /* totalsize beyond what was given */
	b->blob[0] ^= 1;
	EXPECT(!fdt_open(&f, b->blob, size));
	b->blob[0] ^= 1;
	fdtb_put32(b->blob + 24, 17); /* incompatible with version 16 */
	EXPECT(!fdt_open(&f, b->blob, size));
	fdtb_put32(b->blob + 24, 16);
	fdtb_put32(b->blob + 36, (UINT32)size); /* structure block past the end */
	EXPECT(!fdt_open(&f, b->blob, size));
}

TEST(fdt_refuses_a_property_longer_than_the_block)
{
	struct fdt_builder *b = &tree_builder;
	size_t size = virt_tree(b);
	struct fdt f;
	const void *value;
	UINT32 len;

	/* The root's first property (#address-cells) claims a huge value. */
	fdtb_put32(b->blob + 56 + 8 + 4, 0x7ffffff0);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(!fdt_get_prop(&f, 0, "#address-cells", &value, &len));
	EXPECT(fdt_find_node(&f, -1, "memory", NULL) < 0);
}

TEST(fdt_refuses_an_unterminated_node_name)
{
	struct fdt_builder *b = &tree_builder;
	struct fdt f;
	size_t size;

	memset(b, 0, sizeof(*b));
	fdtb_token(b, 1);
	memcpy(b->structure + b->struct_len, "abcd", 4); /* no NUL inside the block */
	b->struct_len += 4;
	size = fdtb_finish(b);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(fdt_find_node(&f, -1, "abcd", NULL) < 0);
	EXPECT(fdt_find_node(&f, -1, NULL, "x") < 0);
}

TEST(fdt_check_takes_a_whole_tree_and_refuses_broken_nesting)
{
	struct fdt_builder *b = &tree_builder;
	size_t size = virt_tree(b);
	struct fdt f;

	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(fdt_check(&f));
	/* The root's END_NODE made a NOP: the root is never closed. */
	fdtb_put32(b->blob + 56 + b->struct_len - 8, 4);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(!fdt_check(&f));
	/* A second root after the first. */
	memset(b, 0, sizeof(*b));
	fdtb_begin(b, "");
	fdtb_end(b);
	fdtb_begin(b, "");
	fdtb_end(b);
	fdtb_token(b, 9);
	size = fdtb_finish(b);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(!fdt_check(&f));
	/* A property whose name lies outside the strings block. */
	memset(b, 0, sizeof(*b));
	fdtb_begin(b, "");
	fdtb_prop32(b, "x", 1);
	fdtb_end(b);
	fdtb_token(b, 9);
	fdtb_put32(b->structure + 12, 100);
	size = fdtb_finish(b);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(!fdt_check(&f));
}

TEST(fdt_walks_children_and_the_reservation_block)
{
	struct fdt_builder *b = &tree_builder;
	size_t size;
	struct fdt f;
	UINT64 address, length;
	long root, child;

	memset(b, 0, sizeof(*b));
	b->rsv[0][0] = 0x48000000;
	b->rsv[0][1] = 0x10000;
	b->rsv_count = 1;
	fdtb_begin(b, "");
	fdtb_prop32(b, "#size-cells", 2);
	fdtb_begin(b, "a");
	fdtb_begin(b, "inner");
	fdtb_end(b);
	fdtb_end(b);
	fdtb_token(b, 4); /* a NOP between siblings */
	fdtb_begin(b, "b");
	fdtb_end(b);
	fdtb_end(b);
	fdtb_token(b, 9);
	size = fdtb_finish(b);
	ASSERT(fdt_open(&f, b->blob, size));
	root = fdt_find_node(&f, -1, "", NULL);
	child = fdt_next_child(&f, root, -1);
	EXPECT_EQ(child, fdt_find_node(&f, -1, "a", NULL));
	child = fdt_next_child(&f, root, child);
	EXPECT_EQ(child, fdt_find_node(&f, -1, "b", NULL));
	EXPECT(fdt_next_child(&f, root, child) < 0);
	ASSERT(fdt_mem_rsv(&f, 0, &address, &length));
	EXPECT_EQ(address, 0x48000000ULL);
	EXPECT_EQ(length, 0x10000ULL);
	EXPECT(!fdt_mem_rsv(&f, 1, &address, &length)); /* the terminator */
	/* A block that runs out of the tree ends there. */
	fdtb_put32(b->blob + 16, (UINT32)size - 8);
	ASSERT(fdt_open(&f, b->blob, size));
	EXPECT(!fdt_mem_rsv(&f, 0, &address, &length));
}
