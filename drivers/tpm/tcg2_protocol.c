/* EFI_TCG2_PROTOCOL (TCG EFI Protocol Specification, family 2.0, section 6) over the machine's
 * TPM and event log, on a handle of its own, installed once a TPM has started. */
#define LOG_PREFIX "tcg2: "
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/measure.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include "event_log.h"
#include "tcg2_private.h"

#define BANKS_HASHABLE (TPM_BANK_SHA1 | TPM_BANK_SHA256 | TPM_BANK_SHA384 | TPM_BANK_SHA512)

static UINT32 manufacturer_id;

UINT32 tcg2_hash_bitmap(const struct tpm_device *tpm)
{
	return tpm->supported_banks & BANKS_HASHABLE;
}

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

static UINT32 bank_count(UINT32 banks)
{
	UINT32 n = 0;

	for (UINT32 i = 0; i < TPM_BANK_COUNT; i++)
		n += (banks >> i) & 1;
	return n;
}

static void capability_fill(EFI_TCG2_BOOT_SERVICE_CAPABILITY *cap)
{
	struct tpm_device *tpm = tpm_get();

	mem_set(cap, 0, sizeof(*cap));
	cap->Size = sizeof(*cap);
	cap->StructureVersion = (EFI_TCG2_VERSION){1, 1};
	cap->ProtocolVersion = (EFI_TCG2_VERSION){1, 1};
	cap->SupportedEventLogs = EFI_TCG2_EVENT_LOG_FORMAT_TCG_2 |
				  (event_log_legacy() ? EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2 : 0);
	cap->MaxCommandSize = TPM_BUFFER_MAX;
	cap->MaxResponseSize = TPM_BUFFER_MAX;
	if (!tpm)
		return;
	cap->TPMPresentFlag = 1;
	cap->HashAlgorithmBitmap = tcg2_hash_bitmap(tpm);
	cap->ManufacturerID = manufacturer_id;
	cap->NumberOfPCRBanks = bank_count(cap->HashAlgorithmBitmap);
	cap->ActivePcrBanks = tpm->active_banks & cap->HashAlgorithmBitmap;
}

/* A caller of protocol version 1.0 passes the smaller structure (6.4.4): it gets the fields it
 * knows, and the versions say 1.0. Anything smaller learns the size. */
static EFI_STATUS EFIAPI tcg2_get_capability(EFI_TCG2_PROTOCOL *This,
					     EFI_TCG2_BOOT_SERVICE_CAPABILITY *ProtocolCapability)
{
	EFI_TCG2_BOOT_SERVICE_CAPABILITY cap;

	if (!This || !ProtocolCapability)
		return EFI_INVALID_PARAMETER;
	capability_fill(&cap);
	if (ProtocolCapability->Size >= sizeof(cap)) {
		mem_copy(ProtocolCapability, &cap, sizeof(cap));
		return EFI_SUCCESS;
	}
	if (ProtocolCapability->Size < EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE) {
		ProtocolCapability->Size = sizeof(cap);
		return EFI_BUFFER_TOO_SMALL;
	}
	cap.Size = EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE;
	cap.StructureVersion = (EFI_TCG2_VERSION){1, 0};
	cap.ProtocolVersion = (EFI_TCG2_VERSION){1, 0};
	mem_copy(ProtocolCapability, &cap, EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE);
	return EFI_SUCCESS;
}

/* The SHA-1 log: where it is, and its last record (0 when empty). */
static void legacy_log_report(const struct tcg_legacy_log *legacy, EFI_PHYSICAL_ADDRESS *location,
			      EFI_PHYSICAL_ADDRESS *last, BOOLEAN *truncated)
{
	*location = (EFI_PHYSICAL_ADDRESS)(uintptr_t)legacy->base;
	*last = legacy->used ? *location + legacy->last_event : 0;
	*truncated = legacy->truncated;
}

/* The crypto-agile log, or the SHA-1 one when the SHA-1 bank is active (else that format
 * is unsupported, 6.5). From the first call for the crypto-agile log on, events also go
 * into the final events table (which holds that format only). */
static EFI_STATUS EFIAPI tcg2_get_event_log(EFI_TCG2_PROTOCOL *This,
					    EFI_TCG2_EVENT_LOG_FORMAT EventLogFormat,
					    EFI_PHYSICAL_ADDRESS *EventLogLocation,
					    EFI_PHYSICAL_ADDRESS *EventLogLastEntry,
					    BOOLEAN *EventLogTruncated)
{
	struct tcg_log *log;

	const struct tcg_legacy_log *legacy = event_log_legacy();

	if (!This || !EventLogLocation || !EventLogLastEntry || !EventLogTruncated)
		return EFI_INVALID_PARAMETER;
	if (EventLogFormat == EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2 && legacy) {
		legacy_log_report(legacy, EventLogLocation, EventLogLastEntry, EventLogTruncated);
		return EFI_SUCCESS;
	}
	if (EventLogFormat != EFI_TCG2_EVENT_LOG_FORMAT_TCG_2)
		return EFI_INVALID_PARAMETER;
	log = event_log_get();
	if (!log) {
		/* No TPM (any more): an empty log, as the specification asks. */
		*EventLogLocation = *EventLogLastEntry = 0;
		*EventLogTruncated = FALSE;
		return EFI_SUCCESS;
	}
	*EventLogLocation = (EFI_PHYSICAL_ADDRESS)(uintptr_t)log->base;
	*EventLogLastEntry = (EFI_PHYSICAL_ADDRESS)(uintptr_t)(log->base + log->last_event);
	*EventLogTruncated = log->truncated;
	event_log_final_start();
	return EFI_SUCCESS;
}

static EFI_STATUS tcg2_event_check(const EFI_TCG2_EVENT *event)
{
	if (event->Header.HeaderSize != sizeof(EFI_TCG2_EVENT_HEADER) ||
	    event->Header.HeaderVersion != EFI_TCG2_EVENT_HEADER_VERSION) {
		log_debug("HashLogExtendEvent: header size %u, version %u\n",
			  event->Header.HeaderSize, event->Header.HeaderVersion);
		return EFI_INVALID_PARAMETER;
	}
	if (event->Size < sizeof(EFI_TCG2_EVENT) || event->Header.PCRIndex > TCG2_MAX_PCR_INDEX) {
		log_debug("HashLogExtendEvent: size %u, PCR %u\n", event->Size,
			  event->Header.PCRIndex);
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI tcg2_hash_log_extend_event(EFI_TCG2_PROTOCOL *This, UINT64 Flags,
						    EFI_PHYSICAL_ADDRESS DataToHash,
						    UINT64 DataToHashLen,
						    EFI_TCG2_EVENT *EfiTcgEvent)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];
	struct tcg_log *log;
	EFI_STATUS status;

	if (!This || !EfiTcgEvent || (!DataToHash && DataToHashLen))
		return EFI_INVALID_PARAMETER;
	status = tcg2_event_check(EfiTcgEvent);
	if (EFI_ERROR(status))
		return status;
	log = event_log_get();
	if (!log)
		return EFI_DEVICE_ERROR;
	/* EV_NO_ACTION is logged with zero digests and not extended (PFP 10.4.5). */
	if (EfiTcgEvent->Header.EventType == EV_NO_ACTION)
		mem_set(digests, 0, sizeof(digests));
	else
		status = event_log_hash(log->banks, (const void *)(uintptr_t)DataToHash,
					(UINTN)DataToHashLen, Flags & PE_COFF_IMAGE, digests);
	if (EFI_ERROR(status))
		return status;
	return event_log_record(EfiTcgEvent->Header.PCRIndex, EfiTcgEvent->Header.EventType,
				(const UINT8(*)[TPM_DIGEST_MAX])digests, EfiTcgEvent->Event,
				EfiTcgEvent->Size - sizeof(EFI_TCG2_EVENT),
				!(Flags & EFI_TCG2_EXTEND_ONLY));
}

/* The command goes to the TPM as it is; the TPM's answer, whatever its response code, comes
 * back whole or not at all. */
static EFI_STATUS EFIAPI tcg2_submit_command(EFI_TCG2_PROTOCOL *This,
					     UINT32 InputParameterBlockSize,
					     UINT8 *InputParameterBlock,
					     UINT32 OutputParameterBlockSize,
					     UINT8 *OutputParameterBlock)
{
	static UINT8 rsp[TPM_BUFFER_MAX];
	UINT32 rsp_size = sizeof(rsp), code;
	struct tpm_device *tpm = tpm_get();

	if (!This || !InputParameterBlock || !OutputParameterBlock ||
	    InputParameterBlockSize < TPM_HEADER_SIZE || InputParameterBlockSize > TPM_BUFFER_MAX ||
	    !OutputParameterBlockSize)
		return EFI_INVALID_PARAMETER;
	/* A size field that disagrees with the block would leave a FIFO TPM waiting for bytes
	 * that never come, and the TPM unusable for everyone. */
	if (be32(InputParameterBlock + 2) != InputParameterBlockSize) {
		log_debug("SubmitCommand: %u bytes, size field %u\n", InputParameterBlockSize,
			  be32(InputParameterBlock + 2));
		return EFI_INVALID_PARAMETER;
	}
	if (!tpm)
		return EFI_DEVICE_ERROR;
	if (EFI_ERROR(tpm2_transact(tpm, InputParameterBlock, InputParameterBlockSize, rsp,
				    &rsp_size, &code)))
		return EFI_DEVICE_ERROR;
	if (rsp_size > OutputParameterBlockSize)
		return EFI_BUFFER_TOO_SMALL;
	mem_copy(OutputParameterBlock, rsp, rsp_size);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI tcg2_get_active_pcr_banks(EFI_TCG2_PROTOCOL *This, UINT32 *ActivePcrBanks)
{
	struct tpm_device *tpm = tpm_get();

	if (!This || !ActivePcrBanks)
		return EFI_INVALID_PARAMETER;
	if (!tpm)
		return EFI_DEVICE_ERROR;
	*ActivePcrBanks = tpm->active_banks & tcg2_hash_bitmap(tpm);
	return EFI_SUCCESS;
}

static EFI_TCG2_PROTOCOL tcg2_protocol = {
    tcg2_get_capability,
    tcg2_get_event_log,
    tcg2_hash_log_extend_event,
    tcg2_submit_command,
    tcg2_get_active_pcr_banks,
    tcg2_set_active_pcr_banks,
    tcg2_get_result_of_set_active_pcr_banks,
};

EFI_STATUS tcg2_install(void)
{
	struct tpm_device *tpm = tpm_get();
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;
	UINT32 id;

	if (!tpm)
		return EFI_SUCCESS;
	tcg2_pcr_banks_when_variables(tpm);
	/* The vendor ID's four characters in the TPM's order in memory ("IBM\0" reads as
	 * 0x004d4249), as EDK2 reports them. */
	if (!EFI_ERROR(tpm2_get_manufacturer(tpm, &id)))
		manufacturer_id = id >> 24 | (id >> 8 & 0xFF00) | (id << 8 & 0xFF0000) | id << 24;
	else
		log_debug("TPM manufacturer unknown\n");
	if (!event_log_get())
		return EFI_SUCCESS;
	status = protocol_install(&handle, &efi_tcg2_protocol_guid, &tcg2_protocol);
	if (EFI_ERROR(status))
		log_warn("EFI_TCG2_PROTOCOL not installed: %r\n", status);
	return status;
}
EMBER_INIT(INIT_LATE, tcg2_install);
