/* Between the TCG2 protocol's files (drivers/tpm/tcg2_*.c). */
#ifndef EMBER_TPM_TCG2_PRIVATE_H
#define EMBER_TPM_TCG2_PRIVATE_H

#include <efi/protocol/tcg2.h>
#include <ember/drivers/tpm.h>

/* The banks the firmware can use: those tpm supports that Ember can hash. */
UINT32 tcg2_hash_bitmap(const struct tpm_device *tpm);

/* Installs EFI_TCG2_PROTOCOL on a new handle when the machine's TPM has started (an init
 * step; the unit tests call it themselves). */
EFI_STATUS tcg2_install(void);

/* SetActivePcrBanks and GetResultOfSetActivePcrBanks (tcg2_pcr_banks.c). */
EFI_STATUS EFIAPI tcg2_set_active_pcr_banks(EFI_TCG2_PROTOCOL *This, UINT32 ActivePcrBanks);
EFI_STATUS EFIAPI tcg2_get_result_of_set_active_pcr_banks(EFI_TCG2_PROTOCOL *This,
							  UINT32 *OperationPresent,
							  UINT32 *Response);
/* Carries out a request SetActivePcrBanks left for this boot (TPM2_PCR_Allocate, then a
 * reset so that the TPM uses the new banks); returns when there was none. */
void tcg2_pcr_banks_apply(struct tpm_device *tpm);
/* Calls tcg2_pcr_banks_apply once the variable services are up (now, or when the variable
 * write architectural protocol arrives). */
void tcg2_pcr_banks_when_variables(struct tpm_device *tpm);

#endif
