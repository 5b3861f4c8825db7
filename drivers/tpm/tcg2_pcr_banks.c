/* SetActivePcrBanks and GetResultOfSetActivePcrBanks (TCG EFI Protocol Specification 6.8,
 * 6.9). A request is recorded in a variable and carried out early in the next boot, before
 * the boot manager runs: TPM2_PCR_Allocate with the platform hierarchy (whose authorization is
 * still empty in firmware), then a cold reset, since the TPM uses the new banks only from its
 * next start. The outcome is kept in a second variable for GetResultOfSetActivePcrBanks. */
#define LOG_PREFIX "tcg2: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include "tcg2_private.h"

#define REQUEST_NAME u"Tcg2PcrBanksRequest"
#define RESULT_NAME u"Tcg2PcrBanksResult"
#define ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)
/* TCG Physical Presence Interface responses. */
#define PP_RESPONSE_SUCCESS 0
#define PP_RESPONSE_BIOS_FAILURE 0xFFFFFFF1u

EFI_STATUS EFIAPI tcg2_set_active_pcr_banks(EFI_TCG2_PROTOCOL *This, UINT32 ActivePcrBanks)
{
	struct tpm_device *tpm = tpm_get();

	if (!This)
		return EFI_INVALID_PARAMETER;
	if (!tpm)
		return EFI_DEVICE_ERROR;
	if (!ActivePcrBanks || (ActivePcrBanks & ~tcg2_hash_bitmap(tpm)))
		return EFI_INVALID_PARAMETER;
	if (ActivePcrBanks == (tpm->active_banks & tcg2_hash_bitmap(tpm))) {
		/* Nothing to change: a request left from before is void too. */
		variable_set(REQUEST_NAME, &ember_tcg2_pcr_banks_guid, ATTRIBUTES, 0, NULL);
		return EFI_SUCCESS;
	}
	if (EFI_ERROR(variable_set(REQUEST_NAME, &ember_tcg2_pcr_banks_guid, ATTRIBUTES,
				   sizeof(ActivePcrBanks), &ActivePcrBanks)))
		return EFI_OUT_OF_RESOURCES;
	log_info("PCR banks 0x%x requested for the next boot\n", ActivePcrBanks);
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI tcg2_get_result_of_set_active_pcr_banks(EFI_TCG2_PROTOCOL *This,
							  UINT32 *OperationPresent,
							  UINT32 *Response)
{
	UINT32 result;
	UINTN size = sizeof(result);

	if (!This || !OperationPresent || !Response)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(
		variable_get(RESULT_NAME, &ember_tcg2_pcr_banks_guid, NULL, &size, &result)) ||
	    size != sizeof(result)) {
		*OperationPresent = 0;
		*Response = 0;
		return EFI_SUCCESS;
	}
	*OperationPresent = 1;
	*Response = result;
	return EFI_SUCCESS;
}

void tcg2_pcr_banks_apply(struct tpm_device *tpm)
{
	UINT32 banks, result = PP_RESPONSE_BIOS_FAILURE;
	UINTN size = sizeof(banks);
	EFI_STATUS status = EFI_INVALID_PARAMETER;

	if (EFI_ERROR(variable_get(REQUEST_NAME, &ember_tcg2_pcr_banks_guid, NULL, &size, &banks)))
		return;
	/* Deleted first: a request that fails or resets midway is not tried at every boot. */
	variable_set(REQUEST_NAME, &ember_tcg2_pcr_banks_guid, ATTRIBUTES, 0, NULL);
	if (size == sizeof(banks) && banks && !(banks & ~tcg2_hash_bitmap(tpm)))
		status = tpm2_pcr_allocate(tpm, banks);
	if (!EFI_ERROR(status))
		result = PP_RESPONSE_SUCCESS;
	variable_set(RESULT_NAME, &ember_tcg2_pcr_banks_guid, ATTRIBUTES, sizeof(result), &result);
	if (EFI_ERROR(status)) {
		log_warn("PCR banks 0x%x not allocated: %r\n", banks, status);
		return;
	}
	log_info("PCR banks 0x%x allocated: resetting\n", banks);
	core_st->RuntimeServices->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
}

static void EFIAPI variables_arrived(EFI_EVENT event, void *context)
{
	void *registration = NULL;

	if (EFI_ERROR(protocol_locate(&efi_variable_write_arch_protocol_guid, &registration)))
		return;
	event_close(event);
	if (tpm_get() == context)
		tcg2_pcr_banks_apply(context);
}

/* Init steps run before the platform starts the variable services. */
void tcg2_pcr_banks_when_variables(struct tpm_device *tpm)
{
	EFI_EVENT event;
	void *registration, *unused;

	if (!EFI_ERROR(protocol_locate(&efi_variable_write_arch_protocol_guid, &unused))) {
		tcg2_pcr_banks_apply(tpm);
		return;
	}
	if (EFI_ERROR(event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, variables_arrived, tpm, NULL,
				   &event)) ||
	    EFI_ERROR(protocol_register_notify(&efi_variable_write_arch_protocol_guid, event,
					       &registration)))
		log_warn("SetActivePcrBanks requests will not be carried out\n");
}
