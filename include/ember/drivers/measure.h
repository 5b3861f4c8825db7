/* Measured boot (TCG PC Client Platform Firmware Profile): the machine's event log and the
 * calls that measure into it. Each measurement is hashed with every active PCR bank Ember
 * can hash (SHA-1, SHA-256, SHA-384, SHA-512), extended into the TPM and appended to the
 * crypto-agile event log, which lives in memory the OS keeps (EfiACPIMemoryNVS) and which
 * EFI_TCG2_PROTOCOL hands out. Without a TPM nothing is measured: every call returns
 * EFI_NOT_READY, and callers ignore the status (measuring never stops a boot). */
#ifndef EMBER_MEASURE_H
#define EMBER_MEASURE_H

#include <stdbool.h>
#include <efi/types.h>
#include <efi/status.h>
#include <ember/drivers/tpm.h>

/* True when a TPM is present and started (measurements are taken). */
bool measure_enabled(void);

/* Hashes data in every bank, extends pcr and logs event (the TCG_PCR_EVENT2's Event bytes)
 * with event_type. EV_NO_ACTION events are logged with zero digests and not extended (PFP
 * 10.4.5). EFI_VOLUME_FULL when the log is full (the PCR is still extended),
 * EFI_DEVICE_ERROR when the TPM failed. */
EFI_STATUS measure_data(UINT32 pcr, UINT32 event_type, const void *data, UINTN data_size,
			const void *event, UINT32 event_size);

/* As measure_data with the Authenticode digest of a PE/COFF image in each bank (the digest
 * Secure Boot computes). EFI_UNSUPPORTED when image is no PE/COFF image Ember can hash. */
EFI_STATUS measure_pe_image(UINT32 pcr, UINT32 event_type, const void *image, UINTN image_size,
			    const void *event, UINT32 event_size);

/* Secure Boot has just allowed the image at file (size bytes) and computed its
 * Authenticode SHA-256: the next measure_pe_image of that same buffer takes the digest
 * instead of hashing the image again. file NULL forgets it. */
void measure_image_sha256(const void *file, UINTN size, const UINT8 *digest);

/* As measure_data with digests already computed: digests[i] for TPM bank (1 << i)
 * (TPM_BANK_SHA1, TPM_BANK_SHA256, ...); banks not active are ignored. */
EFI_STATUS measure_digests(UINT32 pcr, UINT32 event_type, const UINT8 digests[][TPM_DIGEST_MAX],
			   const void *event, UINT32 event_size);

#endif
