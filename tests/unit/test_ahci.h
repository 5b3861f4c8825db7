/* What the AHCI driver tests (test_ahci*.c) share: an HBA from fake_ahci.h with the driver
 * connected through the driver model, its children found by their Sata() paths, media
 * whose bytes say where they are, and the check that Stop gave everything back. */
#ifndef EMBER_TEST_AHCI_H
#define EMBER_TEST_AHCI_H

#include "fake_ahci.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/block_io2.h>

#define AHCI_TEST_ATTRIBUTES EFI_PCI_IO_ATTRIBUTE_IO /* what the function has before Start */

/* An HBA at Pci(pci_dev,0x2) with ports_implemented, its function's attributes set to
 * AHCI_TEST_ATTRIBUTES; the built-in drivers installed. */
struct fake_ahci *ahci_test_hba(UINT8 pci_dev, UINT32 ports_implemented);

/* ConnectController on the HBA, not recursive. */
EFI_STATUS ahci_test_connect(struct fake_ahci *a);

/* The child for port (BlockIo on PciRoot(0x0)/Pci(d,0x2)/Sata(port,0xFFFF,0x0)), or NULL. */
EFI_HANDLE ahci_test_child(struct fake_ahci *a, UINT8 port);
EFI_BLOCK_IO_PROTOCOL *ahci_test_block_io(struct fake_ahci *a, UINT8 port);
EFI_BLOCK_IO2_PROTOCOL *ahci_test_block_io2(struct fake_ahci *a, UINT8 port);

/* A medium of bytes (a multiple of block) where every 8 bytes hold their own offset plus
 * seed, so that any misplaced block shows; freed with free(). */
UINT8 *ahci_test_image(UINT64 bytes, UINT64 seed);
/* True when buffer holds bytes of such an image from offset on. */
bool ahci_test_image_at(const UINT8 *buffer, UINT64 bytes, UINT64 offset, UINT64 seed);

/* Checks that the fake saw nothing a real HBA would not take (and says what it saw). */
void ahci_test_expect_no_errors(struct fake_ahci *a);

/* Disconnects the driver and checks it gave everything back: no child, the function's
 * PciIo no longer held, its attributes as before Start, no buffer or mapping left, every
 * port's engines and FIS reception stopped and its addresses cleared. */
void ahci_test_expect_released(struct fake_ahci *a);

#endif
