/* Resource assignment: turns what the scan found into allocation requests (pci_alloc.c),
 * then writes the results: BARs, bridge windows and the command registers. Decoding is
 * enabled on every function whose BARs of that kind all got addresses, because QEMU
 * builds its ACPI tables (the _CRS windows, MCFG) from the BARs that decode. */
#define LOG_PREFIX "pci: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include "pci_bus.h"

static struct pci_bus_res *bus_of(struct pci_scan *scan, struct pci_function *f)
{
	return f->parent ? &f->parent->inner : &scan->root_bus;
}

static bool root_has_mem64(const struct pci_scan *scan)
{
	return scan->apertures[PCI_RES_MEM64].base <= scan->apertures[PCI_RES_MEM64].limit;
}

/* Adds (or, with reqs NULL, counts) the requests of one function to its bus. */
static void add_requests(struct pci_scan *scan, struct pci_function *f, bool fill)
{
	struct pci_bus_res *bus = bus_of(scan, f);
	bool mem64 = f->parent ? f->parent->inner_mem64 : root_has_mem64(scan);

	for (int i = 0; i < PCI_MAX_BAR; i++) {
		struct pci_bar *bar = &f->bars[i];
		if (!bar->offset)
			continue;
		if (fill) {
			bar->req.type = bar->is_io				   ? PCI_RES_IO
					: bar->is_64 && bar->prefetchable && mem64 ? PCI_RES_MEM64
										   : PCI_RES_MEM32;
			bar->req.order = scan->order++;
			bus->reqs[bus->count] = &bar->req;
		}
		bus->count++;
	}
	if (f->rom.offset) {
		if (fill) {
			f->rom.req.type = PCI_RES_MEM32;
			f->rom.req.order = scan->order++;
			bus->reqs[bus->count] = &f->rom.req;
		}
		bus->count++;
	}
	if (!f->is_bridge || !f->secondary)
		return;
	for (UINT8 t = 0; t < PCI_RES_TYPES; t++) {
		if (t == PCI_RES_MEM64 && !f->inner_mem64)
			continue;
		if (fill) {
			f->windows[t] = (struct pci_res_req){
			    .type = t, .inner = &f->inner, .order = scan->order++};
			bus->reqs[bus->count] = &f->windows[t];
		}
		bus->count++;
	}
}

static void reset_counts(struct pci_scan *scan)
{
	scan->root_bus.count = 0;
	for (struct list *l = scan->functions.next; l != &scan->functions; l = l->next)
		list_entry(l, struct pci_function, link)->inner.count = 0;
}

static EFI_STATUS alloc_array(struct pci_bus_res *bus)
{
	if (bus->count && !(bus->reqs = pool_alloc(bus->count * sizeof(bus->reqs[0]))))
		return EFI_OUT_OF_RESOURCES;
	return EFI_SUCCESS;
}

static EFI_STATUS build_requests(struct pci_scan *scan)
{
	struct list *l;

	reset_counts(scan);
	for (l = scan->functions.next; l != &scan->functions; l = l->next)
		add_requests(scan, list_entry(l, struct pci_function, link), false);
	if (EFI_ERROR(alloc_array(&scan->root_bus)))
		return EFI_OUT_OF_RESOURCES;
	for (l = scan->functions.next; l != &scan->functions; l = l->next)
		if (EFI_ERROR(alloc_array(&list_entry(l, struct pci_function, link)->inner)))
			return EFI_OUT_OF_RESOURCES;
	reset_counts(scan);
	for (l = scan->functions.next; l != &scan->functions; l = l->next)
		add_requests(scan, list_entry(l, struct pci_function, link), true);
	return EFI_SUCCESS;
}

static void program_bar(struct pci_function *f, const struct pci_bar *bar)
{
	UINT64 base = bar->req.assigned ? bar->req.base : 0;

	pci_cfg_write32(f, bar->offset, (UINT32)base);
	if (bar->is_64)
		pci_cfg_write32(f, bar->offset + 4, (UINT32)(base >> 32));
}

/* Bridge windows; one without an assignment gets base > limit, which turns it off. */
static void program_windows(struct pci_function *b)
{
	const struct pci_res_req *io = &b->windows[PCI_RES_IO];
	const struct pci_res_req *mem = &b->windows[PCI_RES_MEM32];
	const struct pci_res_req *pref = &b->windows[PCI_RES_MEM64];
	UINT64 io_base = 0xf000, io_last = 0, mem_base = 0xfff00000, mem_last = 0;
	UINT64 pref_base = 0xfff00000, pref_last = 0;

	if (io->assigned && io->size) {
		io_base = io->base;
		io_last = io->base + io->size - 1;
	}
	if (mem->assigned && mem->size) {
		mem_base = mem->base;
		mem_last = mem->base + mem->size - 1;
	}
	if (pref->assigned && pref->size) {
		pref_base = pref->base;
		pref_last = pref->base + pref->size - 1;
	}
	pci_cfg_write8(b, PCI_BRIDGE_IO_BASE_OFFSET, (UINT8)((io_base >> 8) & 0xf0));
	pci_cfg_write8(b, PCI_BRIDGE_IO_LIMIT_OFFSET, (UINT8)((io_last >> 8) & 0xf0));
	pci_cfg_write16(b, PCI_BRIDGE_IO_BASE_UPPER_OFFSET, (UINT16)(io_base >> 16));
	pci_cfg_write16(b, PCI_BRIDGE_IO_LIMIT_UPPER_OFFSET, (UINT16)(io_last >> 16));
	pci_cfg_write16(b, PCI_BRIDGE_MEMORY_BASE_OFFSET, (UINT16)((mem_base >> 16) & 0xfff0));
	pci_cfg_write16(b, PCI_BRIDGE_MEMORY_LIMIT_OFFSET, (UINT16)((mem_last >> 16) & 0xfff0));
	pci_cfg_write16(b, PCI_BRIDGE_PREFETCHABLE_MEMORY_BASE_OFFSET,
			(UINT16)((pref_base >> 16) & 0xfff0));
	pci_cfg_write16(b, PCI_BRIDGE_PREFETCHABLE_MEMORY_LIMIT_OFFSET,
			(UINT16)((pref_last >> 16) & 0xfff0));
	pci_cfg_write32(b, PCI_BRIDGE_PREFETCHABLE_BASE_UPPER_OFFSET, (UINT32)(pref_base >> 32));
	pci_cfg_write32(b, PCI_BRIDGE_PREFETCHABLE_LIMIT_UPPER_OFFSET, (UINT32)(pref_last >> 32));
}

/* The decoding a function gets: a kind of BAR only if all of that kind were placed. */
static UINT16 decode_bits(const struct pci_function *f)
{
	bool io = false, mem = false, io_ok = true, mem_ok = true;

	for (int i = 0; i < PCI_MAX_BAR; i++) {
		const struct pci_bar *bar = &f->bars[i];
		if (!bar->offset)
			continue;
		if (bar->is_io) {
			io = true;
			io_ok = io_ok && bar->req.assigned;
		} else {
			mem = true;
			mem_ok = mem_ok && bar->req.assigned;
		}
	}
	/* VGA and IDE also decode fixed legacy ranges that no BAR describes. */
	if (f->class_code[2] == PCI_CLASS_DISPLAY && f->class_code[1] == PCI_CLASS_DISPLAY_VGA)
		io = mem = true;
	return (io && io_ok ? PCI_COMMAND_IO_SPACE : 0) |
	       (mem && mem_ok ? PCI_COMMAND_MEMORY_SPACE : 0);
}

static void program(struct pci_function *f)
{
	UINT16 cmd = pci_cfg_read16(f, PCI_COMMAND_OFFSET);

	for (int i = 0; i < PCI_MAX_BAR; i++)
		if (f->bars[i].offset)
			program_bar(f, &f->bars[i]);
	pci_rom_program(f);
	if (f->is_bridge) {
		program_windows(f);
		cmd |= PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER;
	} else {
		cmd |= decode_bits(f);
	}
	pci_cfg_write16(f, PCI_COMMAND_OFFSET, cmd);
}

EFI_STATUS pci_assign_resources(struct pci_scan *scan)
{
	size_t failed;
	EFI_STATUS status = build_requests(scan);

	if (EFI_ERROR(status)) {
		log_debug("no memory for the resource requests: %r\n", status);
		return status;
	}
	pci_alloc_size(&scan->root_bus);
	failed = pci_alloc_assign(&scan->root_bus, scan->apertures);
	if (failed)
		log_warn("%u BARs or bridge windows did not fit in the apertures\n",
			 (UINT32)failed);
	for (struct list *l = scan->functions.next; l != &scan->functions; l = l->next)
		program(list_entry(l, struct pci_function, link));
	return EFI_SUCCESS;
}
