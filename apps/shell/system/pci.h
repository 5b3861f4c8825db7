/* The pieces of the pci command: reaching a function's configuration space, and
 * putting it in words. */
#ifndef SHELL_SYSTEM_PCI_H
#define SHELL_SYSTEM_PCI_H

#include "sys.h"
#include <efi/protocol/pci_io.h>
#include <efi/protocol/pci_root_bridge_io.h>

/* A PCI function, reached through its root bridge (or its PciIo when there is none). */
struct pci_fn {
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb;
	EFI_PCI_IO_PROTOCOL *io;
	UINT32 seg;
	UINT8 bus, dev, fn;
};

/* Reads the first 256 bytes of configuration space. */
EFI_STATUS pci_read_config(const struct pci_fn *f, UINT8 cfg[256]);

/* "Bridge Device - Host/PCI bridge" for a class code (base, sub, programming interface). */
void pci_class_text(char *buf, UINTN size, UINT8 base, UINT8 sub, UINT8 pi);

/* Prints the configuration header in words (pci -i). */
void pci_interpret(struct shell *sh, const UINT8 cfg[256]);

#endif
