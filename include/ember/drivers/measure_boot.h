/* The measurements of the boot (TCG PC Client Platform Firmware Profile 1.05, 3.3.4 and
 * 8.2): each step of the boot says here what it measures, in every active bank, through
 * the measurement API (measure.h). Without a TPM each does nothing; a TPM that fails is
 * reported (log_warn) and the boot goes on. */
#ifndef EMBER_MEASURE_BOOT_H
#define EMBER_MEASURE_BOOT_H

#include <stdbool.h>
#include <efi/types.h>
#include <efi/protocol/device_path.h>

/* Measures data into pcr with an event; reports a failure (the boot goes on). */
void measure_event(UINT32 pcr, UINT32 type, const void *data, UINTN size, const void *event,
		   UINT32 event_size);
/* EV_EFI_ACTION: the action's text (no NUL) is both the data and the event. */
void measure_action(UINT32 pcr, const char *action);
/* EV_SEPARATOR of four zero bytes into pcr. */
void measure_separator(UINT32 pcr);
/* An EV_EFI_VARIABLE_* event of UEFI_VARIABLE_DATA; the digest covers the whole structure,
 * or only the variable's data when data_only (EV_EFI_VARIABLE_BOOT). */
void measure_variable(UINT32 pcr, UINT32 type, const CHAR16 *name, const EFI_GUID *guid,
		      const void *data, UINTN size, bool data_only);

/* PCR 7: SecureBoot, PK, KEK, db and dbx (present or not), then the separator; once, before
 * anything from outside the firmware runs (the platform calls it when variables start; the
 * first image from outside calls it too). */
void measure_secure_boot_policy(void);
/* PCR 7: the db entry (an EFI_SIGNATURE_DATA) that allowed an image, once per entry. */
void measure_authority(const void *signature_data, UINTN size);

/* An image from outside the firmware that LoadImage placed at base: PCR 4 for applications
 * (EV_EFI_BOOT_SERVICES_APPLICATION), PCR 2 for drivers, by the Authenticode digest of the
 * file, with UEFI_IMAGE_LOAD_EVENT; an image from a GPT partition first measures that
 * disk's GPT (PCR 5, once). */
void measure_image(const void *file, UINTN file_size, UINT16 subsystem, UINT64 base,
		   UINT64 size_in_memory, UINT64 link_address,
		   const EFI_DEVICE_PATH_PROTOCOL *path);
/* PCR 5: the GPT of the disk whose partition path names (EV_EFI_GPT_EVENT), once a boot. */
void measure_gpt(const EFI_DEVICE_PATH_PROTOCOL *path);

/* PCR 1: BootOrder and each Boot#### it lists (EV_EFI_VARIABLE_BOOT). */
void measure_boot_variables(void);
/* PCR 4 "Calling EFI Application from Boot Option", and before the first attempt the
 * separators of PCRs 0-6 (PCR 7's follows the policy). */
void measure_boot_attempt(void);
/* PCR 4 "Returning from EFI Application from Boot Option". */
void measure_boot_returned(void);

#endif
