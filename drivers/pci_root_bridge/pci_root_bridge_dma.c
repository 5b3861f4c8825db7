/* Bus-master DMA for the root bridge (UEFI 2.10, 14.2): QEMU has no IOMMU by default, so
 * device addresses are host addresses. A 32-bit operation on a buffer that reaches above
 * 4 GiB goes through a bounce buffer below 4 GiB; the 64-bit operations map as is. DMA is
 * taken to be cache-coherent, so Map, Unmap and Flush do no cache maintenance: always so
 * on x86; on Arm virt the host bridge is "dma-coherent" in the device tree (and TCG
 * models no caches). A non-coherent bridge would need clean/invalidate by VA here. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include "pci_root_bridge.h"

#define FOUR_GIB 0x100000000ULL
#define MAPPING_SIGNATURE SIGNATURE_32('r', 'b', 'm', 'p')

struct rb_mapping {
	UINT32 signature;
	struct list link;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_OPERATION operation;
	void *host;
	EFI_PHYSICAL_ADDRESS device;
	UINTN bytes;
	UINTN bounce_pages; /* 0: the device uses the host buffer itself */
};

static bool is_64bit_operation(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_OPERATION op)
{
	return op >= EfiPciOperationBusMasterRead64;
}

/* Sets up a bounce buffer below 4 GiB for m (the device reads it for Read operations). */
static EFI_STATUS bounce(struct rb_mapping *m)
{
	EFI_PHYSICAL_ADDRESS below = FOUR_GIB - 1;
	UINTN pages = EFI_SIZE_TO_PAGES(m->bytes);
	EFI_STATUS status;

	if (m->operation == EfiPciOperationBusMasterCommonBuffer)
		return EFI_UNSUPPORTED; /* common buffers come from AllocateBuffer */
	status = mem_allocate_pages(AllocateMaxAddress, EfiBootServicesData, pages, &below);
	if (EFI_ERROR(status))
		return EFI_OUT_OF_RESOURCES;
	m->device = below;
	m->bounce_pages = pages;
	if (m->operation == EfiPciOperationBusMasterRead)
		mem_copy((void *)(uintptr_t)below, m->host, m->bytes);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI rb_map(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_OPERATION Operation,
				VOID *HostAddress, UINTN *NumberOfBytes,
				EFI_PHYSICAL_ADDRESS *DeviceAddress, VOID **Mapping)
{
	struct root_bridge *rb = rb_from(This);
	struct rb_mapping *m;
	UINT64 end;
	EFI_STATUS status;

	if (!HostAddress || !NumberOfBytes || !DeviceAddress || !Mapping ||
	    (UINT32)Operation >= EfiPciOperationMaximum)
		return EFI_INVALID_PARAMETER;
	if (add_overflows((UINT64)(uintptr_t)HostAddress, (UINT64)*NumberOfBytes, &end))
		return EFI_INVALID_PARAMETER;
	m = pool_alloc(sizeof(*m));
	if (!m)
		return EFI_OUT_OF_RESOURCES;
	*m = (struct rb_mapping){MAPPING_SIGNATURE,
				 {NULL, NULL},
				 Operation,
				 HostAddress,
				 (EFI_PHYSICAL_ADDRESS)(uintptr_t)HostAddress,
				 *NumberOfBytes,
				 0};
	if (!is_64bit_operation(Operation) && end > FOUR_GIB && *NumberOfBytes) {
		status = bounce(m);
		if (EFI_ERROR(status)) {
			pool_free(m);
			return status;
		}
	}
	list_add_tail(&m->link, &rb->mappings);
	*DeviceAddress = m->device;
	*Mapping = m;
	return EFI_SUCCESS;
}

static struct rb_mapping *find_mapping(struct root_bridge *rb, void *mapping)
{
	for (struct list *l = rb->mappings.next; l != &rb->mappings; l = l->next)
		if (list_entry(l, struct rb_mapping, link) == mapping)
			return mapping;
	return NULL;
}

static EFI_STATUS EFIAPI rb_unmap(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, VOID *Mapping)
{
	struct rb_mapping *m = find_mapping(rb_from(This), Mapping);

	if (!m || m->signature != MAPPING_SIGNATURE)
		return EFI_INVALID_PARAMETER;
	if (m->bounce_pages) {
		if (m->operation == EfiPciOperationBusMasterWrite)
			mem_copy(m->host, (void *)(uintptr_t)m->device, m->bytes);
		mem_free_pages(m->device, m->bounce_pages);
	}
	list_del(&m->link);
	m->signature = 0;
	pool_free(m);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI rb_allocate_buffer(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
					    EFI_ALLOCATE_TYPE Type, EFI_MEMORY_TYPE MemoryType,
					    UINTN Pages, VOID **HostAddress, UINT64 Attributes)
{
	EFI_PHYSICAL_ADDRESS address = FOUR_GIB - 1;
	EFI_ALLOCATE_TYPE how = AllocateMaxAddress;
	EFI_STATUS status;

	if (!HostAddress || Type == AllocateAddress || (UINT32)Type >= MaxAllocateType)
		return EFI_INVALID_PARAMETER;
	if (MemoryType != EfiBootServicesData && MemoryType != EfiRuntimeServicesData)
		return EFI_INVALID_PARAMETER;
	if (Attributes & EFI_PCI_ATTRIBUTE_INVALID_FOR_ALLOCATE_BUFFER)
		return EFI_UNSUPPORTED;
	if (Attributes & EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE) {
		how = AllocateAnyPages;
		address = 0;
	}
	if (Type == AllocateMaxAddress) {
		UINT64 max = (UINT64)(uintptr_t)*HostAddress;
		if (how == AllocateAnyPages || max < address)
			address = max;
		how = AllocateMaxAddress;
	}
	status = mem_allocate_pages(how, MemoryType, Pages, &address);
	if (!EFI_ERROR(status))
		*HostAddress = (void *)(uintptr_t)address;
	return status;
}

static EFI_STATUS EFIAPI rb_free_buffer(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This, UINTN Pages,
					VOID *HostAddress)
{
	EFI_STATUS status;

	if (!HostAddress)
		return EFI_INVALID_PARAMETER;
	status = mem_free_pages((EFI_PHYSICAL_ADDRESS)(uintptr_t)HostAddress, Pages);
	return status == EFI_NOT_FOUND ? EFI_INVALID_PARAMETER : status;
}

/* Writes reach memory at once: the DMA is coherent (above), and there is no write buffer. */
static EFI_STATUS EFIAPI rb_flush(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This)
{
	return EFI_SUCCESS;
}

void rb_dma_fill(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *io)
{
	io->Map = rb_map;
	io->Unmap = rb_unmap;
	io->AllocateBuffer = rb_allocate_buffer;
	io->FreeBuffer = rb_free_buffer;
	io->Flush = rb_flush;
}
