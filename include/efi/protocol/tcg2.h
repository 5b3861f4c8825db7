/* EFI_TCG2_PROTOCOL (TCG EFI Protocol Specification, family 2.0, level 00 revision 00.13,
 * section 6) and the final events table (section 7). The capability structure has natural
 * alignment; the event structures are packed. */
#ifndef EFI_PROTOCOL_TCG2_H
#define EFI_PROTOCOL_TCG2_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_TCG2_PROTOCOL_GUID                                                                     \
	EFI_GUID_INIT(0x607f766c, 0x7455, 0x42be, 0x93, 0x0b, 0xe4, 0xd7, 0x6d, 0xb2, 0x72, 0x0f)
#define EFI_TCG2_FINAL_EVENTS_TABLE_GUID                                                           \
	EFI_GUID_INIT(0x1e2ed096, 0x30e2, 0x4254, 0xbd, 0x89, 0x86, 0x3b, 0xbe, 0xf8, 0x23, 0x25)

typedef UINT32 EFI_TCG2_EVENT_LOG_BITMAP;
typedef UINT32 EFI_TCG2_EVENT_LOG_FORMAT;
typedef UINT32 EFI_TCG2_EVENT_ALGORITHM_BITMAP;
typedef UINT32 TCG_PCRINDEX;
typedef UINT32 TCG_EVENTTYPE;

#define EFI_TCG2_EVENT_LOG_FORMAT_TCG_1_2 0x00000001
#define EFI_TCG2_EVENT_LOG_FORMAT_TCG_2 0x00000002

#define EFI_TCG2_BOOT_HASH_ALG_SHA1 0x00000001
#define EFI_TCG2_BOOT_HASH_ALG_SHA256 0x00000002
#define EFI_TCG2_BOOT_HASH_ALG_SHA384 0x00000004
#define EFI_TCG2_BOOT_HASH_ALG_SHA512 0x00000008
#define EFI_TCG2_BOOT_HASH_ALG_SM3_256 0x00000010

/* HashLogExtendEvent's Flags. */
#define EFI_TCG2_EXTEND_ONLY 0x0000000000000001ULL
#define PE_COFF_IMAGE 0x0000000000000010ULL

#define EFI_TCG2_EVENT_HEADER_VERSION 1
#define EFI_TCG2_FINAL_EVENTS_TABLE_VERSION 1
#define TCG2_MAX_PCR_INDEX 23

typedef struct {
	UINT8 Major;
	UINT8 Minor;
} EFI_TCG2_VERSION;

typedef struct {
	UINT8 Size;
	EFI_TCG2_VERSION StructureVersion;
	EFI_TCG2_VERSION ProtocolVersion;
	EFI_TCG2_EVENT_ALGORITHM_BITMAP HashAlgorithmBitmap;
	EFI_TCG2_EVENT_LOG_BITMAP SupportedEventLogs;
	BOOLEAN TPMPresentFlag;
	UINT16 MaxCommandSize;
	UINT16 MaxResponseSize;
	UINT32 ManufacturerID;
	UINT32 NumberOfPCRBanks;
	EFI_TCG2_EVENT_ALGORITHM_BITMAP ActivePcrBanks;
} EFI_TCG2_BOOT_SERVICE_CAPABILITY;
_Static_assert(sizeof(EFI_TCG2_BOOT_SERVICE_CAPABILITY) == 36, "capability layout");
/* The structure of protocol version 1.0 (TrEE) ended after ManufacturerID. */
#define EFI_TCG2_BOOT_SERVICE_CAPABILITY_1_0_SIZE 28

typedef struct {
	UINT32 HeaderSize;
	UINT16 HeaderVersion;
	TCG_PCRINDEX PCRIndex;
	TCG_EVENTTYPE EventType;
} __attribute__((packed)) EFI_TCG2_EVENT_HEADER;
_Static_assert(sizeof(EFI_TCG2_EVENT_HEADER) == 14, "EFI_TCG2_EVENT_HEADER layout");

typedef struct {
	UINT32 Size; /* of the whole structure, Event included */
	EFI_TCG2_EVENT_HEADER Header;
	UINT8 Event[];
} __attribute__((packed)) EFI_TCG2_EVENT;
_Static_assert(sizeof(EFI_TCG2_EVENT) == 18, "EFI_TCG2_EVENT layout");

/* The configuration table of events logged after GetEventLog: TCG_PCR_EVENT2 records. */
typedef struct {
	UINT64 Version;
	UINT64 NumberOfEvents;
	UINT8 Event[];
} EFI_TCG2_FINAL_EVENTS_TABLE;
_Static_assert(sizeof(EFI_TCG2_FINAL_EVENTS_TABLE) == 16, "final events table layout");

typedef struct _EFI_TCG2_PROTOCOL EFI_TCG2_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_TCG2_GET_CAPABILITY)(
    EFI_TCG2_PROTOCOL *This, EFI_TCG2_BOOT_SERVICE_CAPABILITY *ProtocolCapability);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_GET_EVENT_LOG)(EFI_TCG2_PROTOCOL *This,
						   EFI_TCG2_EVENT_LOG_FORMAT EventLogFormat,
						   EFI_PHYSICAL_ADDRESS *EventLogLocation,
						   EFI_PHYSICAL_ADDRESS *EventLogLastEntry,
						   BOOLEAN *EventLogTruncated);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_HASH_LOG_EXTEND_EVENT)(EFI_TCG2_PROTOCOL *This, UINT64 Flags,
							   EFI_PHYSICAL_ADDRESS DataToHash,
							   UINT64 DataToHashLen,
							   EFI_TCG2_EVENT *EfiTcgEvent);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_SUBMIT_COMMAND)(EFI_TCG2_PROTOCOL *This,
						    UINT32 InputParameterBlockSize,
						    UINT8 *InputParameterBlock,
						    UINT32 OutputParameterBlockSize,
						    UINT8 *OutputParameterBlock);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_GET_ACTIVE_PCR_BANKS)(EFI_TCG2_PROTOCOL *This,
							  UINT32 *ActivePcrBanks);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_SET_ACTIVE_PCR_BANKS)(EFI_TCG2_PROTOCOL *This,
							  UINT32 ActivePcrBanks);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_GET_RESULT_OF_SET_ACTIVE_PCR_BANKS)(EFI_TCG2_PROTOCOL *This,
									UINT32 *OperationPresent,
									UINT32 *Response);

struct _EFI_TCG2_PROTOCOL {
	EFI_TCG2_GET_CAPABILITY GetCapability;
	EFI_TCG2_GET_EVENT_LOG GetEventLog;
	EFI_TCG2_HASH_LOG_EXTEND_EVENT HashLogExtendEvent;
	EFI_TCG2_SUBMIT_COMMAND SubmitCommand;
	EFI_TCG2_GET_ACTIVE_PCR_BANKS GetActivePcrBanks;
	EFI_TCG2_SET_ACTIVE_PCR_BANKS SetActivePcrBanks;
	EFI_TCG2_GET_RESULT_OF_SET_ACTIVE_PCR_BANKS GetResultOfSetActivePcrBanks;
};
_Static_assert(sizeof(EFI_TCG2_PROTOCOL) == 56, "EFI_TCG2_PROTOCOL layout");

#endif
