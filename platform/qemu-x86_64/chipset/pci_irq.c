/* PCI interrupt routing as QEMU wires it and its ACPI _PRT describes it: the chipset's PIRQ
 * links are steered to ISA IRQs 10 and 11 (as OVMF and SeaBIOS do), and each function's
 * Interrupt Line register gets the IRQ its pin reaches. A pin is swizzled by the device
 * number at every bridge on the way up (so the device path gives the sum); on i440FX the
 * root slot's PIRQ is (slot + pin - 1) mod 4, on q35 (slot + pin) mod 4 for slots 0-24
 * and the pin alone for the chipset's slots 25-31. */
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <efi/pci.h>
#include <efi/protocol/pci_io.h>
#include "chipset/pci_config.h"
#include "chipset/pci_host.h"
#include "qemu.h"
#include <ember/lib/guids.h>

#define PIIX3_ISA PCI_BDF(0, 1, 0)
#define ICH9_LPC PCI_BDF(0, 0x1f, 0)
#define PIRQA_ROUTE 0x60 /* A-D; ICH9 has E-H at 0x68 */
#define ICH9_PIRQE_ROUTE 0x68
#define Q35_CHIPSET_SLOTS 25

static const UINT8 pirq_irq[4] = {10, 10, 11, 11};

static void route_pirqs(void)
{
	for (UINT16 i = 0; i < 4; i++) {
		if (chipset_machine == MACHINE_Q35) {
			pci_write8(ICH9_LPC, PIRQA_ROUTE + i, pirq_irq[i]);
			pci_write8(ICH9_LPC, ICH9_PIRQE_ROUTE + i, pirq_irq[i]);
		} else {
			pci_write8(PIIX3_ISA, PIRQA_ROUTE + i, pirq_irq[i]);
		}
	}
}

/* The IRQ a function's pin (1-4) reaches, from its device path; 0xFF when unknown. */
static UINT8 irq_of(EFI_DEVICE_PATH_PROTOCOL *path, UINT8 pin)
{
	UINTN index = pin - 1, root_slot = 0;
	bool found = false;

	for (; !dp_is_end(path); path = dp_next(path)) {
		if (path->Type != HARDWARE_DEVICE_PATH || path->SubType != HW_PCI_DP)
			continue;
		UINT8 dev = ((PCI_DEVICE_PATH *)path)->Device;
		index += dev;
		if (!found)
			root_slot = dev;
		found = true;
	}
	if (!found)
		return PCI_INTERRUPT_LINE_UNKNOWN;
	if (chipset_machine == MACHINE_Q35 && root_slot >= Q35_CHIPSET_SLOTS)
		index -= root_slot;
	else if (chipset_machine != MACHINE_Q35)
		index += 3; /* minus one, mod 4 */
	return pirq_irq[index % 4];
}

static void set_interrupt_line(EFI_HANDLE handle)
{
	EFI_PCI_IO_PROTOCOL *io;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINT8 pin = 0, line;

	if (EFI_ERROR(protocol_get(handle, &efi_pci_io_protocol_guid, (void **)&io)) ||
	    EFI_ERROR(protocol_get(handle, &efi_device_path_protocol_guid, (void **)&path)))
		return;
	io->Pci.Read(io, EfiPciIoWidthUint8, PCI_INTERRUPT_PIN_OFFSET, 1, &pin);
	if (pin < PCI_INTERRUPT_PIN_INTA || pin > PCI_INTERRUPT_PIN_INTD)
		return;
	line = irq_of(path, pin);
	io->Pci.Write(io, EfiPciIoWidthUint8, PCI_INTERRUPT_LINE_OFFSET, 1, &line);
}

void pci_irq_route(void)
{
	EFI_HANDLE *handles;
	UINTN count;

	route_pirqs();
	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_pci_io_protocol_guid, NULL, &count,
					   &handles)))
		return;
	for (UINTN i = 0; i < count; i++)
		set_interrupt_line(handles[i]);
	pool_free(handles);
}
