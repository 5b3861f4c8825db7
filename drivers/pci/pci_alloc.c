/* PCI resource allocation: sizing windows bottom-up, then placing requests top-down.
 * Requests are placed in order of decreasing alignment (then size), so that a window
 * packed from an aligned base wastes little; a request that does not fit is skipped and
 * the smaller ones after it still get their chance. */
#include <ember/lib/util.h>
#include "pci_alloc.h"

static uint64_t window_granularity(uint8_t type)
{
	return type == PCI_RES_IO ? PCI_IO_WINDOW_GRANULARITY : PCI_MEM_WINDOW_GRANULARITY;
}

static bool goes_before(const struct pci_res_req *a, const struct pci_res_req *b)
{
	if (a->align != b->align)
		return a->align > b->align;
	if (a->size != b->size)
		return a->size > b->size;
	return a->order < b->order;
}

static void sort_reqs(struct pci_res_req **reqs, size_t count)
{
	for (size_t i = 1; i < count; i++)
		for (size_t j = i; j > 0 && goes_before(reqs[j], reqs[j - 1]); j--) {
			struct pci_res_req *t = reqs[j];
			reqs[j] = reqs[j - 1];
			reqs[j - 1] = t;
		}
}

/* The first address >= at with the alignment; false on overflow. */
static bool align_address(uint64_t at, uint64_t align, uint64_t *out)
{
	uint64_t sum;

	if (align == 0 || (align & (align - 1)))
		return false;
	if (add_overflows(at, align - 1, &sum))
		return false;
	*out = sum & ~(align - 1);
	return true;
}

uint64_t pci_alloc_packed_size(struct pci_res_req **reqs, size_t count, uint8_t type,
			       uint64_t *max_align)
{
	uint64_t end = 0, top = 1;

	sort_reqs(reqs, count);
	for (size_t i = 0; i < count; i++) {
		struct pci_res_req *r = reqs[i];
		if (r->type != type || !r->size)
			continue;
		if (!align_address(end, r->align, &end) || add_overflows(end, r->size, &end))
			end = UINT64_MAX; /* cannot fit anywhere; placement will say so */
		top = MAX(top, r->align);
	}
	*max_align = top;
	return end;
}

static void size_window(struct pci_res_req *w)
{
	uint64_t g = window_granularity(w->type), align, need;

	need = pci_alloc_packed_size(w->inner->reqs, w->inner->count, w->type, &align);
	need = MAX(need, w->inner->reserve[w->type]);
	w->align = MAX(align, g);
	if (!need)
		w->size = 0;
	else if (!align_address(need, g, &w->size))
		w->size = UINT64_MAX;
}

/* True when bus is behind an earlier window request of the array (sized already). */
static bool seen_before(struct pci_bus_res *bus, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (bus->reqs[j]->inner == bus->reqs[i]->inner)
			return true;
	return false;
}

void pci_alloc_size(struct pci_bus_res *bus)
{
	for (size_t i = 0; i < bus->count; i++)
		if (bus->reqs[i]->inner && !seen_before(bus, i))
			pci_alloc_size(bus->reqs[i]->inner);
	for (size_t i = 0; i < bus->count; i++)
		if (bus->reqs[i]->inner)
			size_window(bus->reqs[i]);
}

/* Leaves r, and what it would have held, unassigned; returns how many requests that is. */
static size_t drop(struct pci_res_req *r)
{
	size_t n = r->size ? 1 : 0;

	r->assigned = false;
	r->base = 0;
	if (r->inner)
		for (size_t i = 0; i < r->inner->count; i++)
			if (r->inner->reqs[i]->type == r->type)
				n += drop(r->inner->reqs[i]);
	return n;
}

static size_t place(struct pci_bus_res *bus, uint8_t type, uint64_t base, uint64_t limit)
{
	uint64_t cursor = base, at, last;
	size_t failed = 0;
	bool full = base > limit;

	sort_reqs(bus->reqs, bus->count);
	for (size_t i = 0; i < bus->count; i++) {
		struct pci_res_req *r = bus->reqs[i];
		if (r->type != type)
			continue;
		if (!r->size) {
			failed += drop(r);
			continue;
		}
		if (full || !align_address(cursor, r->align, &at) ||
		    add_overflows(at, r->size - 1, &last) || last > limit) {
			failed += drop(r);
			continue;
		}
		r->base = at;
		r->assigned = true;
		full = last == limit;
		cursor = last + 1;
		if (r->inner)
			failed += place(r->inner, type, at, last);
	}
	return failed;
}

size_t pci_alloc_assign(struct pci_bus_res *bus, const struct pci_range apertures[PCI_RES_TYPES])
{
	size_t failed = 0;

	for (uint8_t t = 0; t < PCI_RES_TYPES; t++)
		failed += place(bus, t, apertures[t].base, apertures[t].limit);
	return failed;
}
