/* PCI resource allocation, pure logic (no hardware, no allocation): sizes every bridge
 * window from what lies behind it and places BARs and windows inside the root bridge's
 * apertures, largest alignment first. Unit-tested in tests/unit/test_pci_alloc.c. */
#ifndef PCI_ALLOC_H
#define PCI_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a request is placed. 64-bit prefetchable memory may go above 4 GiB; behind a bridge
 * it uses the prefetchable window. Everything else in memory is below 4 GiB. */
enum pci_res_type { PCI_RES_IO, PCI_RES_MEM32, PCI_RES_MEM64, PCI_RES_TYPES };

#define PCI_IO_WINDOW_GRANULARITY 0x1000ULL
#define PCI_MEM_WINDOW_GRANULARITY 0x100000ULL

struct pci_bus_res;

/* One request: a BAR (size and alignment given) or a bridge window (computed). */
struct pci_res_req {
	uint64_t size;	/* bytes; 0 = nothing to place */
	uint64_t align; /* a power of two */
	uint64_t base;	/* output */
	bool assigned;	/* output */
	uint8_t type;	/* enum pci_res_type */
	uint32_t order; /* tie-breaker: discovery order, keeps the result deterministic */
	struct pci_bus_res *inner; /* a window: the bus behind the bridge */
};

/* The requests on one bus: the root bus or a bridge's secondary bus. */
struct pci_bus_res {
	struct pci_res_req **reqs; /* BARs of its functions and windows of its bridges */
	size_t count;
	uint64_t reserve[PCI_RES_TYPES]; /* minimum window sizes (hot-plug hints), 0 = none */
};

/* An aperture [base, limit]; empty when base > limit. */
struct pci_range {
	uint64_t base, limit;
};

/* Computes size and alignment of every window request below bus, bottom-up. */
void pci_alloc_size(struct pci_bus_res *bus);

/* Places bus's requests in the apertures (one per type) and, recursively, the requests
 * behind each placed window. Requests that do not fit stay unassigned, together with
 * everything behind them. Returns how many non-empty requests were left unassigned. */
size_t pci_alloc_assign(struct pci_bus_res *bus, const struct pci_range apertures[PCI_RES_TYPES]);

/* The bytes a set of requests of one type needs when packed from an address aligned to
 * their largest alignment (the packing pci_alloc_assign uses). */
uint64_t pci_alloc_packed_size(struct pci_res_req **reqs, size_t count, uint8_t type,
			       uint64_t *max_align);

#endif
