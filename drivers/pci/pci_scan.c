/* Enumeration: every function on every bus below the root bridge. Bridges get bus numbers
 * depth-first (devices behind them, PCIe root ports included, are invisible until then);
 * every BAR is sized with decoding off, both halves of a 64-bit BAR. */
#define LOG_PREFIX "pci: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "pci_bus.h"

#define ALL_ONES_32 0xffffffffu

/* Reads the root bridge's apertures (as PCI addresses) and bus range from its ACPI
 * descriptors. */
EFI_STATUS pci_scan_init(struct pci_scan *scan, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root)
{
	const UINT8 *p;
	EFI_STATUS status;

	mem_set(scan, 0, sizeof(*scan));
	scan->root = root;
	list_init(&scan->functions);
	for (int t = 0; t < PCI_RES_TYPES; t++)
		scan->apertures[t] = (struct pci_range){1, 0};
	scan->bus_limit = PCI_MAX_BUS;
	status = root->Configuration(root, (void **)&p);
	if (EFI_ERROR(status)) {
		log_debug("reading the root bridge's resources: %r\n", status);
		return status;
	}
	for (int n = 0; n < 16 && p[0] == ACPI_ADDRESS_SPACE_DESCRIPTOR; n++) {
		EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR d;
		mem_copy(&d, p, sizeof(d));
		p += sizeof(d);
		if (!d.AddrLen)
			continue;
		/* Host addresses (UEFI 2.7 on): device = host + translation (Arm's I/O window). */
		UINT64 base = d.AddrRangeMin + d.AddrTranslationOffset;
		struct pci_range r = {base, base + d.AddrLen - 1};
		if (d.ResType == ACPI_ADDRESS_SPACE_TYPE_IO)
			scan->apertures[PCI_RES_IO] = r;
		else if (d.ResType == ACPI_ADDRESS_SPACE_TYPE_MEM)
			scan->apertures[d.AddrSpaceGranularity == 64 ? PCI_RES_MEM64
								     : PCI_RES_MEM32] = r;
		else if (d.ResType == ACPI_ADDRESS_SPACE_TYPE_BUS && r.base <= PCI_MAX_BUS) {
			scan->bus_base = (UINT8)r.base;
			scan->bus_limit = (UINT8)MIN(r.limit, (UINT64)PCI_MAX_BUS);
		}
	}
	scan->next_bus = scan->bus_base;
	return EFI_SUCCESS;
}

/* Sizes BAR i; returns how many BAR slots it used (2 for a 64-bit BAR). */
static int size_bar(struct pci_function *f, int i, int count)
{
	struct pci_bar *bar = &f->bars[i];
	UINT8 reg = (UINT8)PCI_BASE_ADDRESS_REG(i);
	UINT32 orig = pci_cfg_read32(f, reg), v, hi_orig, hi;
	UINT64 mask, size;

	pci_cfg_write32(f, reg, ALL_ONES_32);
	v = pci_cfg_read32(f, reg);
	pci_cfg_write32(f, reg, orig);
	if (v == 0 || v == ALL_ONES_32)
		return 1;
	bar->is_io = v & PCI_BAR_IO_SPACE;
	if (bar->is_io) {
		mask = v & PCI_BAR_IO_MASK;
		if (!(mask & 0xffff0000)) /* a 16-bit decoder */
			mask |= 0xffff0000;
		mask |= 0xffffffff00000000ULL;
	} else {
		bar->prefetchable = v & PCI_BAR_MEM_PREFETCHABLE;
		bar->is_64 = (v & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64 && i + 1 < count;
		mask = (v & PCI_BAR_MEM_MASK) | 0xffffffff00000000ULL;
		if (bar->is_64) {
			hi_orig = pci_cfg_read32(f, reg + 4);
			pci_cfg_write32(f, reg + 4, ALL_ONES_32);
			hi = pci_cfg_read32(f, reg + 4);
			pci_cfg_write32(f, reg + 4, hi_orig);
			mask = (mask & 0xffffffff) | (UINT64)hi << 32;
		}
	}
	size = ~mask + 1;
	if (size && !(size & (size - 1))) {
		bar->offset = reg;
		bar->req.size = size;
		bar->req.align = size;
	}
	return bar->is_64 ? 2 : 1;
}

static void size_bars(struct pci_function *f)
{
	int count = f->is_bridge			       ? PCI_BRIDGE_MAX_BAR
		    : f->header_type == PCI_HEADER_TYPE_DEVICE ? PCI_MAX_BAR
							       : 0;

	for (int i = 0; i < count;)
		i += size_bar(f, i, count);
	if (f->header_type == PCI_HEADER_TYPE_DEVICE)
		pci_rom_size(f);
}

/* QEMU's bridges may say how much to reserve for hot-plug (Red Hat vendor capability). */
static void read_reservation(struct pci_function *b)
{
	UINT8 pos = 0;
	UINT32 bus, mem, pref32;
	UINT64 io, pref64;
	struct pci_bus_res *r = &b->inner;

	if (b->vendor_id != PCI_VENDOR_ID_REDHAT)
		return;
	while ((pos = pci_cfg_find_capability(b, PCI_CAP_ID_VENDOR_SPECIFIC, pos)) != 0)
		if (pci_cfg_read8(b, pos + 3) == PCI_REDHAT_CAP_TYPE_RESOURCE_RESERVE &&
		    pci_cfg_read8(b, pos + 2) >= sizeof(PCI_REDHAT_RESOURCE_RESERVE_CAP))
			break;
	if (!pos)
		return;
	bus = pci_cfg_read32(b, pos + 4);
	io = pci_cfg_read32(b, pos + 8) | (UINT64)pci_cfg_read32(b, pos + 12) << 32;
	mem = pci_cfg_read32(b, pos + 16);
	pref32 = pci_cfg_read32(b, pos + 20);
	pref64 = pci_cfg_read32(b, pos + 24) | (UINT64)pci_cfg_read32(b, pos + 28) << 32;
	b->bus_reserve = bus == ALL_ONES_32 ? 0 : bus;
	r->reserve[PCI_RES_IO] = io == UINT64_MAX ? 0 : io;
	r->reserve[PCI_RES_MEM32] = mem == ALL_ONES_32 ? 0 : mem;
	if (pref32 != ALL_ONES_32)
		r->reserve[PCI_RES_MEM32] += pref32; /* no 32-bit prefetchable windows here */
	if (pref64 != UINT64_MAX)
		r->reserve[b->inner_mem64 ? PCI_RES_MEM64 : PCI_RES_MEM32] += pref64;
}

static void write_bus_numbers(struct pci_function *b, UINT8 primary, UINT8 secondary,
			      UINT8 subordinate)
{
	pci_cfg_write8(b, PCI_BRIDGE_PRIMARY_BUS_OFFSET, primary);
	pci_cfg_write8(b, PCI_BRIDGE_SECONDARY_BUS_OFFSET, secondary);
	pci_cfg_write8(b, PCI_BRIDGE_SUBORDINATE_BUS_OFFSET, subordinate);
}

static void scan_bus(struct pci_scan *scan, struct pci_function *parent, UINT8 bus);

/* Gives a bridge the next bus number and scans behind it; the subordinate number covers
 * everything found there, plus any buses its reservation hint asks for. */
static void scan_bridge(struct pci_scan *scan, struct pci_function *b)
{
	UINT8 sub;

	if (scan->next_bus >= scan->bus_limit) {
		log_warn("no bus number left for the bridge at %02x:%02x.%x\n", b->bus, b->dev,
			 b->fn);
		return;
	}
	b->secondary = ++scan->next_bus;
	write_bus_numbers(b, b->bus, b->secondary, scan->bus_limit);
	scan_bus(scan, b, b->secondary);
	sub = scan->next_bus;
	if (b->bus_reserve > 1 && b->secondary + (b->bus_reserve - 1) > sub)
		sub = (UINT8)MIN((UINT32)scan->bus_limit, b->secondary + b->bus_reserve - 1);
	scan->next_bus = sub;
	b->subordinate = sub;
	pci_cfg_write8(b, PCI_BRIDGE_SUBORDINATE_BUS_OFFSET, sub);
}

/* Reads a present function's identity; NULL if absent (or out of memory). */
static struct pci_function *probe(struct pci_scan *scan, struct pci_function *parent, UINT8 bus,
				  UINT8 dev, UINT8 fn)
{
	struct pci_function *f, id = {.root = scan->root, .bus = bus, .dev = dev, .fn = fn};
	UINT32 ids = pci_cfg_read32(&id, PCI_VENDOR_ID_OFFSET);
	UINT32 class = pci_cfg_read32(&id, PCI_REVISION_ID_OFFSET);

	if ((ids & 0xffff) == PCI_VENDOR_ID_INVALID || (ids & 0xffff) == 0)
		return NULL;
	f = pool_alloc(sizeof(*f));
	if (!f) {
		log_debug("%02x:%02x.%x: no memory for the function\n", bus, dev, fn);
		return NULL;
	}
	*f = id;
	f->signature = PCI_FUNCTION_SIGNATURE;
	f->segment = scan->root->SegmentNumber;
	f->vendor_id = (UINT16)ids;
	f->device_id = (UINT16)(ids >> 16);
	f->class_code[0] = (UINT8)(class >> 8);
	f->class_code[1] = (UINT8)(class >> 16);
	f->class_code[2] = (UINT8)(class >> 24);
	f->header_type = pci_cfg_read8(f, PCI_HEADER_TYPE_OFFSET);
	f->parent = parent;
	f->is_bridge = (f->header_type & PCI_HEADER_TYPE_MASK) == PCI_HEADER_TYPE_BRIDGE;
	list_add_tail(&f->link, &scan->functions);
	return f;
}

/* Decoding off while sizing; then the bridge's own BARs, its hints and its buses. */
static void set_up(struct pci_scan *scan, struct pci_function *f)
{
	UINT16 cmd = pci_cfg_read16(f, PCI_COMMAND_OFFSET);
	bool parent_mem64 =
	    f->parent ? f->parent->inner_mem64
		      : scan->apertures[PCI_RES_MEM64].base <= scan->apertures[PCI_RES_MEM64].limit;

	pci_cfg_write16(
	    f, PCI_COMMAND_OFFSET,
	    cmd & ~(PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER));
	size_bars(f);
	if (!f->is_bridge)
		return;
	f->inner_mem64 =
	    parent_mem64 && (pci_cfg_read16(f, PCI_BRIDGE_PREFETCHABLE_MEMORY_BASE_OFFSET) &
			     PCI_BRIDGE_PREF_RANGE_TYPE_MASK) == PCI_BRIDGE_PREF_RANGE_TYPE_64;
	read_reservation(f);
	scan_bridge(scan, f);
}

/* Functions of one device: 0, and 1-7 if function 0 says it is multi-function. */
static void scan_device(struct pci_scan *scan, struct pci_function *parent, UINT8 bus, UINT8 dev)
{
	for (UINT8 fn = 0; fn <= PCI_MAX_FUNC; fn++) {
		struct pci_function *f = probe(scan, parent, bus, dev, fn);
		if (!f) {
			if (fn == 0)
				return;
			continue;
		}
		bool multi = f->header_type & PCI_HEADER_TYPE_MULTI_FUNCTION;
		f->header_type &= PCI_HEADER_TYPE_MASK;
		set_up(scan, f);
		if (fn == 0 && !multi)
			return;
	}
}

/* Clears the bus numbers of the bridges on a bus, so that stale ranges from an earlier
 * enumeration cannot claim buses while the new numbers are handed out. */
static void reset_bridges(struct pci_scan *scan, UINT8 bus)
{
	for (UINT8 dev = 0; dev <= PCI_MAX_DEVICE; dev++)
		for (UINT8 fn = 0; fn <= PCI_MAX_FUNC; fn++) {
			struct pci_function id = {
			    .root = scan->root, .bus = bus, .dev = dev, .fn = fn};
			UINT16 vendor = pci_cfg_read16(&id, PCI_VENDOR_ID_OFFSET);
			if (vendor == PCI_VENDOR_ID_INVALID || vendor == 0) {
				if (fn == 0)
					break;
				continue;
			}
			UINT8 type = pci_cfg_read8(&id, PCI_HEADER_TYPE_OFFSET);
			if ((type & PCI_HEADER_TYPE_MASK) == PCI_HEADER_TYPE_BRIDGE)
				write_bus_numbers(&id, 0, 0, 0);
			if (fn == 0 && !(type & PCI_HEADER_TYPE_MULTI_FUNCTION))
				break;
		}
}

static void scan_bus(struct pci_scan *scan, struct pci_function *parent, UINT8 bus)
{
	reset_bridges(scan, bus);
	for (UINT8 dev = 0; dev <= PCI_MAX_DEVICE; dev++)
		scan_device(scan, parent, bus, dev);
}

void pci_scan_buses(struct pci_scan *scan)
{
	scan_bus(scan, NULL, scan->bus_base);
}

void pci_scan_free(struct pci_scan *scan)
{
	while (!list_empty(&scan->functions)) {
		struct pci_function *f =
		    list_entry(scan->functions.next, struct pci_function, link);
		list_del(&f->link);
		pool_free(f->inner.reqs);
		pool_free(f);
	}
	pool_free(scan->root_bus.reqs);
	scan->root_bus.reqs = NULL;
}
