/* Event types and event data of the TCG PC Client Platform Firmware Profile (PFP 1.05, 10.4:
 * the events table and the UEFI event structures), as Ember's measurements log them.
 * Little-endian and packed, as they appear in the event log. EV_NO_ACTION, EV_SEPARATOR,
 * EV_S_CRTM_VERSION and EV_EFI_ACTION are in tcg_log.h. */
#ifndef EMBER_TCG_EVENTS_H
#define EMBER_TCG_EVENTS_H

#include <efi/types.h>
#include <efi/gpt.h>
#include <efi/protocol/device_path.h>
#include <ember/drivers/tcg_log.h>

#define EV_POST_CODE 0x00000001
#define EV_PLATFORM_CONFIG_FLAGS 0x0000000A
#define EV_EFI_EVENT_BASE 0x80000000
#define EV_EFI_VARIABLE_DRIVER_CONFIG 0x80000001
#define EV_EFI_VARIABLE_BOOT 0x80000002
#define EV_EFI_BOOT_SERVICES_APPLICATION 0x80000003
#define EV_EFI_BOOT_SERVICES_DRIVER 0x80000004
#define EV_EFI_RUNTIME_SERVICES_DRIVER 0x80000005
#define EV_EFI_GPT_EVENT 0x80000006
#define EV_EFI_PLATFORM_FIRMWARE_BLOB 0x80000008
#define EV_EFI_HANDOFF_TABLES 0x80000009
#define EV_EFI_PLATFORM_FIRMWARE_BLOB2 0x8000000A
#define EV_EFI_HANDOFF_TABLES2 0x8000000B
#define EV_EFI_VARIABLE_AUTHORITY 0x800000E0

/* The PCRs of the profile's measurements (PFP 3.3.4). */
#define PCR_PLATFORM_CODE 0
#define PCR_PLATFORM_CONFIG 1
#define PCR_DRIVER_CODE 2
#define PCR_BOOT_MANAGER_CODE 4
#define PCR_BOOT_MANAGER_CONFIG 5
#define PCR_SECURE_BOOT_POLICY 7

/* EV_EFI_ACTION strings (PFP 10.4.4, without a terminating NUL in the event). */
#define TCG_ACTION_CALLING_BOOT_OPTION "Calling EFI Application from Boot Option"
#define TCG_ACTION_RETURNING_BOOT_OPTION "Returning from EFI Application from Boot Option"
#define TCG_ACTION_EBS_INVOCATION "Exit Boot Services Invocation"
#define TCG_ACTION_EBS_SUCCESS "Exit Boot Services Returned with Success"
#define TCG_ACTION_EBS_FAILURE "Exit Boot Services Returned with Failure"
/* The event data of ACPI table measurements (PFP 10.4.2 POST code strings, no NUL). */
#define TCG_POST_CODE_ACPI_DATA "ACPI DATA"

#pragma pack(1)

/* EV_EFI_VARIABLE_*: the variable's GUID, name (UnicodeNameLength CHAR16s, no NUL) and
 * data follow this header. */
typedef struct {
	EFI_GUID VariableName;
	UINT64 UnicodeNameLength;
	UINT64 VariableDataLength;
	/* CHAR16 UnicodeName[UnicodeNameLength]; INT8 VariableData[VariableDataLength]; */
} UEFI_VARIABLE_DATA;

/* EV_EFI_BOOT_SERVICES_APPLICATION, _DRIVER, EV_EFI_RUNTIME_SERVICES_DRIVER; the image's
 * device path (LengthOfDevicePath bytes) follows. */
typedef struct {
	EFI_PHYSICAL_ADDRESS ImageLocationInMemory;
	UINT64 ImageLengthInMemory;
	UINT64 ImageLinkTimeAddress;
	UINT64 LengthOfDevicePath;
	/* EFI_DEVICE_PATH_PROTOCOL DevicePath[]; */
} UEFI_IMAGE_LOAD_EVENT;

/* EV_EFI_GPT_EVENT: the primary header, then NumberOfPartitions entries of the header's
 * SizeOfPartitionEntry bytes (the used ones, in table order). */
typedef struct {
	EFI_PARTITION_TABLE_HEADER UEFIPartitionHeader;
	UINT64 NumberOfPartitions;
	/* EFI_PARTITION_ENTRY Partitions[]; */
} UEFI_GPT_DATA;

/* EV_EFI_PLATFORM_FIRMWARE_BLOB2: UINT8 BlobDescriptionSize, BlobDescription (that many
 * bytes, Ember's with their NUL), then this tail. EV_EFI_HANDOFF_TABLES2 is laid out the same
 * way: UINT8 TableDescriptionSize, TableDescription, UINT64 NumberOfTables, then that many
 * EFI_CONFIGURATION_TABLE entries. */
typedef struct {
	EFI_PHYSICAL_ADDRESS BlobBase;
	UINT64 BlobLength;
} UEFI_PLATFORM_FIRMWARE_BLOB2_TAIL;

#pragma pack()

_Static_assert(sizeof(UEFI_VARIABLE_DATA) == 32, "UEFI_VARIABLE_DATA layout");
_Static_assert(sizeof(UEFI_IMAGE_LOAD_EVENT) == 32, "UEFI_IMAGE_LOAD_EVENT layout");
_Static_assert(sizeof(UEFI_GPT_DATA) == 100, "UEFI_GPT_DATA layout");

#endif
