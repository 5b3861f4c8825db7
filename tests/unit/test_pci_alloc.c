/* drivers/pci/pci_alloc.c: window sizing and placement of PCI resources. */
#include <stdlib.h>
#include <string.h>
#include "support/test.h"
#include "../../drivers/pci/pci_alloc.h"

#define MAX_REQS 64

/* A bus with room for requests, and a pool of requests to hand out. */
struct tbus {
	struct pci_bus_res bus;
	struct pci_res_req *ptrs[MAX_REQS];
};

static struct pci_res_req pool[1024];
static size_t pool_used;
static struct tbus buses[64];
static size_t buses_used;

static void reset(void)
{
	memset(pool, 0, sizeof(pool));
	memset(buses, 0, sizeof(buses));
	pool_used = buses_used = 0;
}

static struct tbus *new_bus(void)
{
	struct tbus *b = &buses[buses_used++];
	b->bus.reqs = b->ptrs;
	return b;
}

static struct pci_res_req *add(struct tbus *b, uint8_t type, uint64_t size)
{
	struct pci_res_req *r = &pool[pool_used];
	r->type = type;
	r->size = size;
	r->align = size ? size : 1;
	r->order = (uint32_t)pool_used++;
	b->bus.reqs[b->bus.count++] = r;
	return r;
}

/* A bridge on b: three window requests sharing one secondary bus. */
static struct tbus *add_bridge(struct tbus *b, struct pci_res_req *win[PCI_RES_TYPES])
{
	struct tbus *inner = new_bus();
	for (uint8_t t = 0; t < PCI_RES_TYPES; t++) {
		win[t] = add(b, t, 0);
		win[t]->inner = &inner->bus;
	}
	return inner;
}

static const struct pci_range q35_apertures[PCI_RES_TYPES] = {
    {0x6000, 0xffff}, {0x80000000, 0xafffffff}, {0x800000000, 0xfffffffff}};

TEST(pci_alloc_root_bus_largest_first)
{
	reset();
	struct tbus *root = new_bus();
	struct pci_res_req *a = add(root, PCI_RES_MEM32, 0x1000);
	struct pci_res_req *b = add(root, PCI_RES_MEM32, 0x1000000);
	struct pci_res_req *c = add(root, PCI_RES_MEM32, 0x100000);
	struct pci_res_req *io = add(root, PCI_RES_IO, 0x20);
	struct pci_res_req *m64 = add(root, PCI_RES_MEM64, 0x4000);

	pci_alloc_size(&root->bus);
	EXPECT_EQ(pci_alloc_assign(&root->bus, q35_apertures), 0);
	EXPECT_EQ(b->base, 0x80000000);
	EXPECT_EQ(c->base, 0x81000000);
	EXPECT_EQ(a->base, 0x81100000);
	EXPECT_EQ(io->base, 0x6000);
	EXPECT_EQ(m64->base, 0x800000000);
	EXPECT(a->assigned && b->assigned && c->assigned && io->assigned && m64->assigned);
}

TEST(pci_alloc_bridge_windows_are_sized_and_aligned)
{
	reset();
	struct tbus *root = new_bus();
	struct pci_res_req *w[PCI_RES_TYPES];
	struct tbus *sec = add_bridge(root, w);
	struct pci_res_req *big = add(sec, PCI_RES_MEM32, 0x200000);
	struct pci_res_req *small = add(sec, PCI_RES_MEM32, 0x1000);
	struct pci_res_req *io = add(sec, PCI_RES_IO, 0x20);
	struct pci_res_req *pref = add(sec, PCI_RES_MEM64, 0x4000);
	struct pci_res_req *sibling = add(root, PCI_RES_MEM32, 0x1000);

	pci_alloc_size(&root->bus);
	EXPECT_EQ(w[PCI_RES_MEM32]->size, 0x300000); /* 2 MiB + 4 KiB, rounded to 1 MiB */
	EXPECT_EQ(w[PCI_RES_MEM32]->align, 0x200000);
	EXPECT_EQ(w[PCI_RES_IO]->size, 0x1000);
	EXPECT_EQ(w[PCI_RES_IO]->align, 0x1000);
	EXPECT_EQ(w[PCI_RES_MEM64]->size, 0x100000);
	EXPECT_EQ(pci_alloc_assign(&root->bus, q35_apertures), 0);
	EXPECT_EQ(w[PCI_RES_MEM32]->base, 0x80000000);
	EXPECT_EQ(big->base, 0x80000000);
	EXPECT_EQ(small->base, 0x80200000);
	EXPECT_EQ(sibling->base, 0x80300000);
	EXPECT_EQ(io->base, 0x6000);
	EXPECT_EQ(pref->base, 0x800000000);
}

TEST(pci_alloc_empty_bridge_gets_no_window_unless_reserved)
{
	reset();
	struct tbus *root = new_bus();
	struct pci_res_req *w1[PCI_RES_TYPES], *w2[PCI_RES_TYPES];
	add_bridge(root, w1);
	struct tbus *hinted = add_bridge(root, w2);
	hinted->bus.reserve[PCI_RES_MEM32] = 0x200000;
	hinted->bus.reserve[PCI_RES_IO] = 0x800;
	hinted->bus.reserve[PCI_RES_MEM64] = 0x2000000;

	pci_alloc_size(&root->bus);
	for (int t = 0; t < PCI_RES_TYPES; t++)
		EXPECT_EQ(w1[t]->size, 0);
	EXPECT_EQ(w2[PCI_RES_MEM32]->size, 0x200000);
	EXPECT_EQ(w2[PCI_RES_IO]->size, 0x1000);
	EXPECT_EQ(w2[PCI_RES_MEM64]->size, 0x2000000);
	EXPECT_EQ(pci_alloc_assign(&root->bus, q35_apertures), 0);
	EXPECT(!w1[PCI_RES_MEM32]->assigned);
	EXPECT(w2[PCI_RES_MEM32]->assigned);
}

TEST(pci_alloc_what_does_not_fit_is_skipped)
{
	reset();
	struct tbus *root = new_bus();
	struct pci_res_req *huge = add(root, PCI_RES_MEM32, 0x40000000);
	struct pci_res_req *ok = add(root, PCI_RES_MEM32, 0x1000);
	struct pci_res_req *w[PCI_RES_TYPES];
	struct tbus *sec = add_bridge(root, w);
	struct pci_res_req *behind = add(sec, PCI_RES_IO, 0x10000);
	struct pci_res_req *behind_mem = add(sec, PCI_RES_MEM32, 0x1000);

	pci_alloc_size(&root->bus);
	/* huge, the I/O window and the BAR behind it */
	EXPECT_EQ(pci_alloc_assign(&root->bus, q35_apertures), 3);
	EXPECT(!huge->assigned);
	EXPECT(ok->assigned);
	EXPECT(!w[PCI_RES_IO]->assigned);
	EXPECT(!behind->assigned);
	EXPECT(behind_mem->assigned);
}

TEST(pci_alloc_no_64bit_aperture)
{
	reset();
	struct tbus *root = new_bus();
	struct pci_res_req *r = add(root, PCI_RES_MEM64, 0x4000);
	struct pci_range ap[PCI_RES_TYPES] = {{0xc000, 0xffff}, {0x80000000, 0xfbffffff}, {1, 0}};

	pci_alloc_size(&root->bus);
	EXPECT_EQ(pci_alloc_assign(&root->bus, ap), 1);
	EXPECT(!r->assigned);
}

TEST(pci_alloc_overflowing_sizes_are_refused)
{
	reset();
	struct tbus *root = new_bus();
	struct pci_res_req *w[PCI_RES_TYPES];
	struct tbus *sec = add_bridge(root, w);
	add(sec, PCI_RES_MEM64, 0x8000000000000000ULL);
	add(sec, PCI_RES_MEM64, 0x8000000000000000ULL);
	struct pci_range ap[PCI_RES_TYPES] = {
	    {0, 0xffff}, {0, 0xffffffff}, {1ULL << 40, UINT64_MAX}};

	pci_alloc_size(&root->bus);
	EXPECT_EQ(w[PCI_RES_MEM64]->size, UINT64_MAX);
	EXPECT_EQ(pci_alloc_assign(&root->bus, ap), 3);
}

/* Random trees: every placed request is aligned, inside its parent's range, and disjoint
 * from its siblings. */
static void check_bus(struct pci_bus_res *bus, uint8_t type, uint64_t base, uint64_t limit)
{
	for (size_t i = 0; i < bus->count; i++) {
		struct pci_res_req *r = bus->reqs[i];
		if (r->type != type || !r->assigned)
			continue;
		EXPECT(r->size != 0);
		EXPECT_EQ(r->base & (r->align - 1), 0);
		EXPECT(r->base >= base && r->base + r->size - 1 <= limit);
		for (size_t j = i + 1; j < bus->count; j++) {
			struct pci_res_req *o = bus->reqs[j];
			if (o->type == type && o->assigned)
				EXPECT(o->base + o->size <= r->base ||
				       r->base + r->size <= o->base);
		}
		if (r->inner)
			check_bus(r->inner, type, r->base, r->base + r->size - 1);
	}
}

static void random_bus(struct tbus *b, int depth)
{
	int n = rand() % 6;
	for (int i = 0; i < n && pool_used + 8 < 1024 && buses_used < 60; i++) {
		if (depth < 4 && rand() % 4 == 0) {
			struct pci_res_req *w[PCI_RES_TYPES];
			struct tbus *sec = add_bridge(b, w);
			if (rand() % 3 == 0)
				sec->bus.reserve[rand() % PCI_RES_TYPES] = 1ULL << (rand() % 24);
			random_bus(sec, depth + 1);
		} else {
			uint8_t t = (uint8_t)(rand() % PCI_RES_TYPES);
			add(b, t, 1ULL << (t == PCI_RES_IO ? 2 + rand() % 8 : 4 + rand() % 26));
		}
	}
}

TEST(pci_alloc_random_trees_keep_invariants)
{
	srand(5);
	for (int round = 0; round < 300; round++) {
		reset();
		struct tbus *root = new_bus();
		random_bus(root, 0);
		pci_alloc_size(&root->bus);
		pci_alloc_assign(&root->bus, q35_apertures);
		for (uint8_t t = 0; t < PCI_RES_TYPES; t++)
			check_bus(&root->bus, t, q35_apertures[t].base, q35_apertures[t].limit);
	}
}
