/* EFI_MP_SERVICES_PROTOCOL (PI 1.8, volume 2, section 13.4): the processors of the machine,
 * and running a procedure on the application processors (APs) during boot services. */
#ifndef EFI_PROTOCOL_MP_SERVICES_H
#define EFI_PROTOCOL_MP_SERVICES_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_MP_SERVICES_PROTOCOL_GUID                                                              \
	EFI_GUID_INIT(0x3fdda605, 0xa76e, 0x4f46, 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08)

/* EFI_PROCESSOR_INFORMATION.StatusFlag bits. */
#define PROCESSOR_AS_BSP_BIT 0x00000001
#define PROCESSOR_ENABLED_BIT 0x00000002
#define PROCESSOR_HEALTH_STATUS_BIT 0x00000004

/* Or'ed into GetProcessorInfo's ProcessorNumber: fill ExtendedInformation too. */
#define CPU_V2_EXTENDED_TOPOLOGY (1U << 24)

/* Ends the FailedCpuList of StartupAllAPs. */
#define END_OF_CPU_LIST 0xffffffff

typedef struct {
	UINT32 Package;
	UINT32 Core;
	UINT32 Thread;
} EFI_CPU_PHYSICAL_LOCATION;

typedef struct {
	UINT32 Package;
	UINT32 Module;
	UINT32 Tile;
	UINT32 Die;
	UINT32 Core;
	UINT32 Thread;
} EFI_CPU_PHYSICAL_LOCATION2;

typedef union {
	EFI_CPU_PHYSICAL_LOCATION2 Location2;
} EXTENDED_PROCESSOR_INFORMATION;

typedef struct {
	UINT64 ProcessorId; /* the local APIC ID on x86 */
	UINT32 StatusFlag;
	EFI_CPU_PHYSICAL_LOCATION Location;
	EXTENDED_PROCESSOR_INFORMATION ExtendedInformation;
} EFI_PROCESSOR_INFORMATION;
_Static_assert(sizeof(EFI_PROCESSOR_INFORMATION) == 48, "EFI_PROCESSOR_INFORMATION layout");

typedef void(EFIAPI *EFI_AP_PROCEDURE)(void *ProcedureArgument);

typedef struct _EFI_MP_SERVICES_PROTOCOL EFI_MP_SERVICES_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_GET_NUMBER_OF_PROCESSORS)(
    EFI_MP_SERVICES_PROTOCOL *This, UINTN *NumberOfProcessors, UINTN *NumberOfEnabledProcessors);
typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_GET_PROCESSOR_INFO)(
    EFI_MP_SERVICES_PROTOCOL *This, UINTN ProcessorNumber,
    EFI_PROCESSOR_INFORMATION *ProcessorInfoBuffer);
typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_STARTUP_ALL_APS)(
    EFI_MP_SERVICES_PROTOCOL *This, EFI_AP_PROCEDURE Procedure, BOOLEAN SingleThread,
    EFI_EVENT WaitEvent, UINTN TimeoutInMicroSeconds, void *ProcedureArgument,
    UINTN **FailedCpuList);
typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_STARTUP_THIS_AP)(
    EFI_MP_SERVICES_PROTOCOL *This, EFI_AP_PROCEDURE Procedure, UINTN ProcessorNumber,
    EFI_EVENT WaitEvent, UINTN TimeoutInMicroseconds, void *ProcedureArgument, BOOLEAN *Finished);
typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_SWITCH_BSP)(EFI_MP_SERVICES_PROTOCOL *This,
						       UINTN ProcessorNumber, BOOLEAN EnableOldBSP);
typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_ENABLEDISABLEAP)(EFI_MP_SERVICES_PROTOCOL *This,
							    UINTN ProcessorNumber, BOOLEAN EnableAP,
							    UINT32 *HealthFlag);
typedef EFI_STATUS(EFIAPI *EFI_MP_SERVICES_WHOAMI)(EFI_MP_SERVICES_PROTOCOL *This,
						   UINTN *ProcessorNumber);

struct _EFI_MP_SERVICES_PROTOCOL {
	EFI_MP_SERVICES_GET_NUMBER_OF_PROCESSORS GetNumberOfProcessors;
	EFI_MP_SERVICES_GET_PROCESSOR_INFO GetProcessorInfo;
	EFI_MP_SERVICES_STARTUP_ALL_APS StartupAllAPs;
	EFI_MP_SERVICES_STARTUP_THIS_AP StartupThisAP;
	EFI_MP_SERVICES_SWITCH_BSP SwitchBSP;
	EFI_MP_SERVICES_ENABLEDISABLEAP EnableDisableAP;
	EFI_MP_SERVICES_WHOAMI WhoAmI;
};
_Static_assert(sizeof(EFI_MP_SERVICES_PROTOCOL) == 56, "EFI_MP_SERVICES_PROTOCOL layout");

#endif
