/* Configuration-space access for one function, through its root bridge's Pci accessors.
 * A failing access reads as all ones, like a read from an absent function. */
#include "pci_bus.h"

static UINT64 address(const struct pci_function *f, UINT16 reg)
{
	return EFI_PCI_ADDRESS(f->bus, f->dev, f->fn, reg);
}

static UINT32 cfg_read(const struct pci_function *f, UINT16 reg,
		       EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH w)
{
	UINT32 v = 0xffffffff;

	if (EFI_ERROR(f->root->Pci.Read(f->root, w, address(f, reg), 1, &v)))
		return 0xffffffff;
	return v;
}

static void cfg_write(const struct pci_function *f, UINT16 reg,
		      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH w, UINT32 v)
{
	f->root->Pci.Write(f->root, w, address(f, reg), 1, &v);
}

UINT8 pci_cfg_read8(const struct pci_function *f, UINT16 reg)
{
	return (UINT8)cfg_read(f, reg, EfiPciWidthUint8);
}

UINT16 pci_cfg_read16(const struct pci_function *f, UINT16 reg)
{
	return (UINT16)cfg_read(f, reg, EfiPciWidthUint16);
}

UINT32 pci_cfg_read32(const struct pci_function *f, UINT16 reg)
{
	return cfg_read(f, reg, EfiPciWidthUint32);
}

void pci_cfg_write8(const struct pci_function *f, UINT16 reg, UINT8 value)
{
	cfg_write(f, reg, EfiPciWidthUint8, value);
}

void pci_cfg_write16(const struct pci_function *f, UINT16 reg, UINT16 value)
{
	cfg_write(f, reg, EfiPciWidthUint16, value);
}

void pci_cfg_write32(const struct pci_function *f, UINT16 reg, UINT32 value)
{
	cfg_write(f, reg, EfiPciWidthUint32, value);
}

UINT8 pci_cfg_find_capability(const struct pci_function *f, UINT8 id, UINT8 start)
{
	UINT8 pos;

	if (!(pci_cfg_read16(f, PCI_STATUS_OFFSET) & PCI_STATUS_CAPABILITIES_LIST))
		return 0;
	pos = start ? pci_cfg_read8(f, start + PCI_CAP_NEXT_OFFSET)
		    : pci_cfg_read8(f, PCI_CAPABILITY_POINTER_OFFSET);
	/* At most 48 capabilities fit in 192 bytes: a longer chain is a loop. */
	for (int n = 0; n < 48 && (pos & PCI_CAP_POINTER_MASK) >= 0x40; n++) {
		pos &= PCI_CAP_POINTER_MASK;
		if (pci_cfg_read8(f, pos + PCI_CAP_ID_OFFSET) == id)
			return pos;
		pos = pci_cfg_read8(f, pos + PCI_CAP_NEXT_OFFSET);
	}
	return 0;
}
