/* EFI_PCI_IO_PROTOCOL attributes (UEFI 2.10, 14.4): Attributes (Get, Set, Enable, Disable,
 * Supported), GetBarAttributes and SetBarAttributes. IO, MEMORY and BUS_MASTER are the
 * command register's bits; legacy VGA/IDE/ISA decoding is offered to root-bus functions of
 * those classes (QEMU's root bridge always forwards those ranges). No BAR attribute (cache
 * type) can be changed, as on EDK2. */
#include <ember/core/core.h>
#include "pci_bus.h"

#define COMMAND_ATTRIBUTES                                                                         \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)
#define VGA_ATTRIBUTES                                                                             \
	(EFI_PCI_IO_ATTRIBUTE_VGA_MEMORY | EFI_PCI_IO_ATTRIBUTE_VGA_IO |                           \
	 EFI_PCI_IO_ATTRIBUTE_VGA_IO_16 | EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO |                    \
	 EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO_16)
#define IDE_ATTRIBUTES (EFI_PCI_IO_ATTRIBUTE_IDE_PRIMARY_IO | EFI_PCI_IO_ATTRIBUTE_IDE_SECONDARY_IO)
#define ISA_ATTRIBUTES                                                                             \
	(EFI_PCI_IO_ATTRIBUTE_ISA_IO | EFI_PCI_IO_ATTRIBUTE_ISA_IO_16 |                            \
	 EFI_PCI_IO_ATTRIBUTE_ISA_MOTHERBOARD_IO)

static UINT64 command_to_attributes(UINT16 cmd)
{
	return (cmd & PCI_COMMAND_IO_SPACE ? EFI_PCI_IO_ATTRIBUTE_IO : 0) |
	       (cmd & PCI_COMMAND_MEMORY_SPACE ? EFI_PCI_IO_ATTRIBUTE_MEMORY : 0) |
	       (cmd & PCI_COMMAND_BUS_MASTER ? EFI_PCI_IO_ATTRIBUTE_BUS_MASTER : 0);
}

void pci_io_init_attributes(struct pci_function *f)
{
	UINT8 base = f->class_code[2], sub = f->class_code[1];

	f->supports = COMMAND_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
	if (!f->parent) {
		if (base == PCI_CLASS_DISPLAY && sub == PCI_CLASS_DISPLAY_VGA)
			f->supports |= VGA_ATTRIBUTES;
		if (base == PCI_CLASS_MASS_STORAGE && sub == PCI_CLASS_MASS_STORAGE_IDE)
			f->supports |= IDE_ATTRIBUTES;
		if (base == PCI_CLASS_BRIDGE && sub == PCI_CLASS_BRIDGE_ISA)
			f->supports |= ISA_ATTRIBUTES;
	}
	f->attributes = command_to_attributes(pci_cfg_read16(f, PCI_COMMAND_OFFSET));
}

/* The 10-bit and 16-bit forms of the same legacy decode cannot both be on. */
static bool consistent(UINT64 a)
{
	return !((a & EFI_PCI_IO_ATTRIBUTE_VGA_IO) && (a & EFI_PCI_IO_ATTRIBUTE_VGA_IO_16)) &&
	       !((a & EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO) &&
		 (a & EFI_PCI_IO_ATTRIBUTE_VGA_PALETTE_IO_16)) &&
	       !((a & EFI_PCI_IO_ATTRIBUTE_ISA_IO) && (a & EFI_PCI_IO_ATTRIBUTE_ISA_IO_16));
}

static EFI_STATUS apply(struct pci_function *f, UINT64 wanted)
{
	UINT16 cmd = pci_cfg_read16(f, PCI_COMMAND_OFFSET);

	if (wanted & ~f->supports || !consistent(wanted))
		return EFI_UNSUPPORTED;
	cmd &= ~(PCI_COMMAND_IO_SPACE | PCI_COMMAND_MEMORY_SPACE | PCI_COMMAND_BUS_MASTER);
	if (wanted & EFI_PCI_IO_ATTRIBUTE_IO)
		cmd |= PCI_COMMAND_IO_SPACE;
	if (wanted & EFI_PCI_IO_ATTRIBUTE_MEMORY)
		cmd |= PCI_COMMAND_MEMORY_SPACE;
	if (wanted & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)
		cmd |= PCI_COMMAND_BUS_MASTER;
	pci_cfg_write16(f, PCI_COMMAND_OFFSET, cmd);
	f->attributes = wanted;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pio_attributes(EFI_PCI_IO_PROTOCOL *This,
					EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION Operation,
					UINT64 Attributes, UINT64 *Result)
{
	struct pci_function *f = pci_function_from(This);
	UINT64 current = (f->attributes & ~COMMAND_ATTRIBUTES) |
			 command_to_attributes(pci_cfg_read16(f, PCI_COMMAND_OFFSET));

	switch (Operation) {
	case EfiPciIoAttributeOperationGet:
	case EfiPciIoAttributeOperationSupported:
		if (!Result)
			return EFI_INVALID_PARAMETER;
		*Result = Operation == EfiPciIoAttributeOperationGet ? current : f->supports;
		return EFI_SUCCESS;
	case EfiPciIoAttributeOperationSet:
		return apply(f, Attributes);
	case EfiPciIoAttributeOperationEnable:
		if (Attributes & ~f->supports)
			return EFI_UNSUPPORTED;
		return apply(f, current | Attributes);
	case EfiPciIoAttributeOperationDisable:
		if (Attributes & ~f->supports)
			return EFI_UNSUPPORTED;
		return apply(f, current & ~Attributes);
	default:
		return EFI_INVALID_PARAMETER;
	}
}

/* The BAR bar_index if it is implemented and has an address; NULL otherwise. */
static const struct pci_bar *placed_bar(const struct pci_function *f, UINT8 bar_index)
{
	if (bar_index >= PCI_MAX_BAR || !f->bars[bar_index].offset ||
	    !f->bars[bar_index].req.assigned)
		return NULL;
	return &f->bars[bar_index];
}

static EFI_STATUS EFIAPI pio_get_bar_attributes(EFI_PCI_IO_PROTOCOL *This, UINT8 BarIndex,
						UINT64 *Supports, VOID **Resources)
{
	const struct pci_bar *bar = placed_bar(pci_function_from(This), BarIndex);
	struct __attribute__((packed)) {
		EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR desc;
		EFI_ACPI_END_TAG_DESCRIPTOR end;
	} * r;

	if (!Supports && !Resources)
		return EFI_INVALID_PARAMETER;
	if (!bar)
		return EFI_UNSUPPORTED;
	if (Supports)
		*Supports = 0;
	if (!Resources)
		return EFI_SUCCESS;
	r = pool_alloc(sizeof(*r));
	if (!r)
		return EFI_OUT_OF_RESOURCES;
	r->desc.Desc = ACPI_ADDRESS_SPACE_DESCRIPTOR;
	r->desc.Len = sizeof(r->desc) - 3;
	r->desc.ResType = bar->is_io ? ACPI_ADDRESS_SPACE_TYPE_IO : ACPI_ADDRESS_SPACE_TYPE_MEM;
	r->desc.AddrSpaceGranularity = bar->is_io ? 0 : bar->is_64 ? 64 : 32;
	r->desc.SpecificFlag =
	    bar->prefetchable ? EFI_ACPI_MEMORY_RESOURCE_SPECIFIC_FLAG_CACHEABLE_PREFETCHABLE : 0;
	r->desc.AddrRangeMin = bar->req.base;
	r->desc.AddrRangeMax = bar->req.base + bar->req.size - 1;
	r->desc.AddrLen = bar->req.size;
	r->end.Desc = ACPI_END_TAG_DESCRIPTOR;
	r->end.Checksum = 0;
	*Resources = r;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pio_set_bar_attributes(EFI_PCI_IO_PROTOCOL *This, UINT64 Attributes,
						UINT8 BarIndex, UINT64 *Offset, UINT64 *Length)
{
	const struct pci_bar *bar = placed_bar(pci_function_from(This), BarIndex);

	if (!Offset || !Length)
		return EFI_INVALID_PARAMETER;
	if (!bar || *Offset > bar->req.size || *Length > bar->req.size - *Offset)
		return EFI_UNSUPPORTED;
	return Attributes ? EFI_UNSUPPORTED : EFI_SUCCESS;
}

void pci_io_fill_attributes(EFI_PCI_IO_PROTOCOL *io)
{
	io->Attributes = pio_attributes;
	io->GetBarAttributes = pio_get_bar_attributes;
	io->SetBarAttributes = pio_set_bar_attributes;
}
