/* What the tests of the SCSI drivers share: the protocols on the child a fake channel's
 * LUN got (fake_scsi_pass_thru.h, or the fake virtio-scsi device). */
#ifndef EMBER_TEST_SCSI_TEST_UTIL_H
#define EMBER_TEST_SCSI_TEST_UTIL_H

#include <efi/protocol/block_io.h>
#include <efi/protocol/scsi_io.h>
#include "fake_scsi.h"

/* The handle whose device path is exactly text, or NULL. */
EFI_HANDLE scsi_test_handle(const CHAR16 *text);
/* A protocol on the handle of that device path, or NULL. */
void *scsi_test_protocol(const CHAR16 *text, const EFI_GUID *protocol);
/* True when bytes at buffer are the model's medium (seed) from byte offset on. */
bool scsi_test_holds(const UINT8 *buffer, UINT8 seed, UINT64 offset, UINTN bytes);

#endif
