/* What the NVMe driver tests (test_nvme*.c) share: a controller from fake_nvme.h with the
 * driver connected through the driver model, namespaces whose bytes say where they are,
 * children found by their NVMe() paths, and the check that Stop gave everything back. */
#ifndef EMBER_TEST_NVME_H
#define EMBER_TEST_NVME_H

#include "fake_nvme.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/block_io2.h>
#include <efi/protocol/nvm_express_pass_thru.h>

#define NVME_TEST_PCI_DEV 0x4

/* A controller at Pci(0x4,0x0) with the built-in drivers installed. */
struct fake_nvme *nvme_test_ctrl(void);

/* Attaches namespace nsid of blocks blocks of 2^shift bytes over a fresh image (freed by
 * nvme_test_done) whose every 8 bytes hold their own offset plus nsid. */
struct fake_nvme_ns *nvme_test_ns(struct fake_nvme *n, UINT32 nsid, UINT64 blocks, UINT8 shift);

/* ConnectController on the controller, not recursive. */
EFI_STATUS nvme_test_connect(struct fake_nvme *n);

/* The child of namespace nsid (BlockIo on PciRoot(0x0)/Pci(0x4,0x0)/NVMe(nsid,EUI-64) with
 * the EUI-64 the fake gives it), or NULL. */
EFI_HANDLE nvme_test_child(struct fake_nvme *n, UINT32 nsid);
EFI_BLOCK_IO_PROTOCOL *nvme_test_block_io(struct fake_nvme *n, UINT32 nsid);

/* The controller's pass-through protocol, or NULL. */
EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *nvme_test_pass_thru(struct fake_nvme *n);

/* True when buffer holds bytes of namespace nsid's image from offset on. */
bool nvme_test_image_at(const UINT8 *buffer, UINT64 bytes, UINT64 offset, UINT32 nsid);

/* Checks that the fake saw nothing a real controller would not take. */
void nvme_test_expect_no_errors(struct fake_nvme *n);

/* Disconnects the driver and checks it gave everything back: no child, no pass-through,
 * PciIo not held, its attributes as before Start, no buffer or mapping left, the controller
 * shut down and disabled. Then frees the controller and the images. */
void nvme_test_done(struct fake_nvme *n);

#endif
