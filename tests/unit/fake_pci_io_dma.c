/* The DMA of the fake PCI function (see fake_pci_io.h), as UEFI 2.10, 14.4 describes Map,
 * Unmap, AllocateBuffer and FreeBuffer, done the way a root bridge does it: a buffer the
 * device cannot reach goes through a bounce buffer below 4 GiB. */
#include <stdlib.h>
#include <string.h>

#include "fake_pci_io.h"
#include <ember/core/core.h>
#include <ember/lib/util.h>

#define PAGE 4096
#define BUFFER_ATTRIBUTES                                                                          \
	(EFI_PCI_IO_ATTRIBUTE_MEMORY_WRITE_COMBINE | EFI_PCI_IO_ATTRIBUTE_MEMORY_CACHED |          \
	 EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE)
#define UNWRITTEN 0xa5 /* what a bounce buffer holds before the device writes it */

/* A buffer AllocateBuffer handed out. */
struct fake_pci_buffer {
	struct list link;
	UINT8 *host;
	UINTN pages;
};

static struct fake_pci_io *fake_pci_io_from(EFI_PCI_IO_PROTOCOL *this)
{
	return container_of(this, struct fake_pci_io, pci_io);
}

static bool dual_address(struct fake_pci_io *f)
{
	return f->attributes & EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
}

static bool above_4g(const void *p, UINTN bytes)
{
	return ((UINT64)(uintptr_t)p + (bytes ? bytes - 1 : 0)) >> 32;
}

static UINTN pages_of(UINTN bytes)
{
	return (bytes + PAGE - 1) / PAGE;
}

/* Pages from the firmware's memory, below 4 GiB unless the device does 64-bit DMA. */
static UINT8 *get_pages(EFI_MEMORY_TYPE type, UINTN pages, bool high)
{
	EFI_PHYSICAL_ADDRESS addr = high ? ~0ULL : 0xFFFFFFFFULL;

	if (EFI_ERROR(mem_allocate_pages(AllocateMaxAddress, type, pages, &addr)))
		return NULL;
	return (UINT8 *)(uintptr_t)addr;
}

static void put_pages(UINT8 *p, UINTN pages)
{
	mem_free_pages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, pages);
}

/* ---- AllocateBuffer, FreeBuffer ---- */

static struct fake_pci_buffer *buffer_holding(struct fake_pci_io *f, const UINT8 *p, UINTN bytes)
{
	struct fake_pci_buffer *b;

	list_for_each_entry (b, &f->buffers, link)
		if (p >= b->host && bytes <= b->pages * PAGE &&
		    (UINTN)(p - b->host) <= b->pages * PAGE - bytes)
			return b;
	return NULL;
}

static EFI_STATUS EFIAPI allocate_buffer(EFI_PCI_IO_PROTOCOL *this, EFI_ALLOCATE_TYPE type,
					 EFI_MEMORY_TYPE memory_type, UINTN pages, VOID **host,
					 UINT64 attrs)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_buffer *b;

	/* The spec has Type ignored; a driver asking for a fixed address would not get it. */
	if (type != AllocateAnyPages && type != AllocateMaxAddress)
		return EFI_INVALID_PARAMETER;
	if (!host || !pages ||
	    (memory_type != EfiBootServicesData && memory_type != EfiRuntimeServicesData))
		return EFI_INVALID_PARAMETER;
	if (attrs & ~(UINT64)BUFFER_ATTRIBUTES)
		return EFI_UNSUPPORTED;
	if (++f->alloc_calls == f->faults.alloc_fail_at)
		return EFI_OUT_OF_RESOURCES;
	b = calloc(1, sizeof(*b));
	b->host = get_pages(memory_type, pages, dual_address(f));
	if (!b->host) {
		free(b);
		return EFI_OUT_OF_RESOURCES;
	}
	b->pages = pages;
	list_add_tail(&b->link, &f->buffers);
	f->live_buffers++;
	*host = b->host;
	return EFI_SUCCESS;
}

static bool is_mapped(struct fake_pci_io *f, const UINT8 *p, UINTN bytes)
{
	struct fake_pci_map *m;

	list_for_each_entry (m, &f->maps, link)
		if (p < m->host + m->bytes && m->host < p + bytes)
			return true;
	return false;
}

static EFI_STATUS EFIAPI free_buffer(EFI_PCI_IO_PROTOCOL *this, UINTN pages, VOID *host)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_buffer *b = buffer_holding(f, host, 1);

	if (!b || b->host != host || b->pages != pages) {
		fake_pci_io_error(f, "FreeBuffer of memory AllocateBuffer did not give (%p)", host);
		return EFI_INVALID_PARAMETER;
	}
	if (is_mapped(f, b->host, pages * PAGE))
		fake_pci_io_error(f, "FreeBuffer of a buffer still mapped (%p)", host);
	put_pages(b->host, b->pages);
	list_del(&b->link);
	free(b);
	f->live_buffers--;
	return EFI_SUCCESS;
}

/* ---- Map, Unmap ---- */

/* A copy the device uses instead of the caller's memory: filled now for the device to
 * read, garbage until the device writes it otherwise. */
static EFI_STATUS bounce(struct fake_pci_io *f, struct fake_pci_map *m)
{
	if (m->op == EfiPciIoOperationBusMasterCommonBuffer) {
		fake_pci_io_error(f, "CommonBuffer map out of the device's reach (%p)", m->host);
		return EFI_UNSUPPORTED;
	}
	m->bounce = get_pages(EfiBootServicesData, pages_of(m->bytes), false);
	if (!m->bounce)
		return EFI_OUT_OF_RESOURCES;
	if (m->op == EfiPciIoOperationBusMasterRead)
		memcpy(m->bounce, m->host, m->bytes);
	else
		memset(m->bounce, UNWRITTEN, m->bytes);
	return EFI_SUCCESS;
}

static bool needs_bounce(struct fake_pci_io *f, const struct fake_pci_map *m)
{
	if (f->faults.bounce_all && m->op != EfiPciIoOperationBusMasterCommonBuffer)
		return true;
	return above_4g(m->host, m->bytes) && !dual_address(f) && !f->faults.no_bounce;
}

/* How much of bytes a map of op covers, as the faults allow. */
static UINTN map_bytes(struct fake_pci_io *f, EFI_PCI_IO_PROTOCOL_OPERATION op, UINTN bytes)
{
	bool common = op == EfiPciIoOperationBusMasterCommonBuffer;
	UINTN limit = common ? f->faults.common_map_limit : f->faults.map_limit;

	if (limit && bytes > limit)
		bytes = limit;
	if (common && f->faults.common_map_short)
		bytes--;
	return bytes;
}

static EFI_STATUS EFIAPI map(EFI_PCI_IO_PROTOCOL *this, EFI_PCI_IO_PROTOCOL_OPERATION op,
			     VOID *host, UINTN *bytes, EFI_PHYSICAL_ADDRESS *device, VOID **mapping)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_map *m;

	if ((UINT32)op >= EfiPciIoOperationMaximum || !host || !bytes || !*bytes || !device ||
	    !mapping)
		return EFI_INVALID_PARAMETER;
	if (++f->map_calls == f->faults.map_fail_at)
		return EFI_OUT_OF_RESOURCES;
	if (op == EfiPciIoOperationBusMasterCommonBuffer && !buffer_holding(f, host, *bytes)) {
		fake_pci_io_error(f, "CommonBuffer map of memory AllocateBuffer did not give (%p)",
				  host);
		return EFI_UNSUPPORTED;
	}
	m = calloc(1, sizeof(*m));
	*m = (struct fake_pci_map){.op = op, .host = host, .bytes = map_bytes(f, op, *bytes)};
	if (needs_bounce(f, m)) {
		EFI_STATUS status = bounce(f, m);
		if (EFI_ERROR(status)) {
			free(m);
			return status;
		}
	}
	m->device = (UINT64)(uintptr_t)(m->bounce ? m->bounce : m->host) + f->faults.dma_offset;
	list_add_tail(&m->link, &f->maps);
	f->live_maps++;
	*bytes = m->bytes;
	*device = m->device;
	*mapping = m;
	return EFI_SUCCESS;
}

/* Ends a mapping; Unmap (copy_back) brings what the device wrote through a bounce buffer
 * home. */
static void drop_map(struct fake_pci_io *f, struct fake_pci_map *m, bool copy_back)
{
	if (copy_back && m->bounce && m->op == EfiPciIoOperationBusMasterWrite)
		memcpy(m->host, m->bounce, m->bytes);
	if (m->bounce)
		put_pages(m->bounce, pages_of(m->bytes));
	list_del(&m->link);
	free(m);
	f->live_maps--;
}

static EFI_STATUS EFIAPI unmap(EFI_PCI_IO_PROTOCOL *this, VOID *mapping)
{
	struct fake_pci_io *f = fake_pci_io_from(this);
	struct fake_pci_map *m;

	f->unmap_calls++;
	list_for_each_entry (m, &f->maps, link)
		if (m == mapping) {
			drop_map(f, m, true);
			return EFI_SUCCESS;
		}
	fake_pci_io_error(f, "Unmap of a mapping that is not live (%p)", mapping);
	return EFI_INVALID_PARAMETER;
}

/* ---- The device's side ---- */

void *fake_pci_io_dma(struct fake_pci_io *f, UINT64 addr, UINTN bytes, bool device_writes)
{
	struct fake_pci_map *m;
	bool wrong_way = false;

	if (!(f->attributes & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)) {
		fake_pci_io_error(f, "DMA with bus mastering off (%#llx)",
				  (unsigned long long)addr);
		return NULL;
	}
	list_for_each_entry (m, &f->maps, link) {
		if (addr < m->device || bytes > m->bytes || addr - m->device > m->bytes - bytes)
			continue;
		/* A read mapping's data never comes back to the host; a write mapping's bounce
		 * holds nothing of the host's. */
		if (device_writes ? m->op == EfiPciIoOperationBusMasterRead
				  : m->op == EfiPciIoOperationBusMasterWrite) {
			wrong_way = true;
			continue;
		}
		return (m->bounce ? m->bounce : m->host) + (addr - m->device);
	}
	fake_pci_io_error(f, "DMA %s %s (%#llx, %llu bytes)", device_writes ? "write" : "read",
			  wrong_way ? (device_writes ? "into a BusMasterRead mapping"
						     : "from a BusMasterWrite mapping")
				    : "outside every mapping",
			  (unsigned long long)addr, (unsigned long long)bytes);
	return NULL;
}

void fake_pci_io_dma_init(struct fake_pci_io *f)
{
	list_init(&f->maps);
	list_init(&f->buffers);
	f->pci_io.Map = map;
	f->pci_io.Unmap = unmap;
	f->pci_io.AllocateBuffer = allocate_buffer;
	f->pci_io.FreeBuffer = free_buffer;
}

/* What the drivers left behind goes, so that one failing test does not drain the next;
 * nothing is copied back, the memory a leaked mapping covered may be gone. */
void fake_pci_io_dma_release(struct fake_pci_io *f)
{
	struct fake_pci_map *m, *mt;
	struct fake_pci_buffer *b, *bt;

	list_for_each_entry_safe (m, mt, &f->maps, link)
		drop_map(f, m, false);
	list_for_each_entry_safe (b, bt, &f->buffers, link) {
		put_pages(b->host, b->pages);
		list_del(&b->link);
		free(b);
	}
}
