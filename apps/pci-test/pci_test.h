/* pci-test: what the firmware says about PCI and its firmware tables, printed for the QEMU
 * tests (tests/qemu/test_pci.py, test_acpi.py) to compare with QEMU's own view, plus checks
 * that need no outside view (PciIo behaviour, ACPI and SMBIOS structure and checksums).
 * Uses only the UEFI API, so it runs on OVMF too (scripts/run-ovmf). */
#ifndef PCI_TEST_H
#define PCI_TEST_H

#include "../lib/app.h"
#include "../lib/check.h"
#include <efi/protocol/pci_io.h>

/* pci_list.c: one "PCI" line per PciIo handle, its BARs, and PciIo behaviour checks. */
void pt_list_pci(void);
/* reconnect.c: DisconnectController and ConnectController on the root bridge. */
void pt_reconnect(void);
void pt_check_pci_io(void);
/* acpi.c, smbios.c: the configuration tables. */
void pt_check_acpi(void);
void pt_check_smbios(void);
/* bgrt.c: the boot logo's table and image. */
void pt_check_bgrt(void);
/* Before anything is printed: how much of the screen under the BGRT shows its image. */
void pt_bgrt_snapshot(void);

/* The configuration table with this GUID, or NULL. */
void *pt_config_table(const EFI_GUID *guid);
/* The byte sum of n bytes (0 for a valid ACPI/SMBIOS checksum). */
UINT8 pt_sum(const void *p, UINTN n);

#endif
