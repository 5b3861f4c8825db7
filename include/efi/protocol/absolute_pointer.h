/* EFI_ABSOLUTE_POINTER_PROTOCOL (UEFI 2.10, 12.7): a touch screen or tablet's position. */
#ifndef EFI_PROTOCOL_ABSOLUTE_POINTER_H
#define EFI_PROTOCOL_ABSOLUTE_POINTER_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_ABSOLUTE_POINTER_PROTOCOL_GUID                                                         \
	EFI_GUID_INIT(0x8d59d32b, 0xc655, 0x4ae9, 0x9b, 0x15, 0xf2, 0x59, 0x04, 0x99, 0x2a, 0x43)

typedef struct _EFI_ABSOLUTE_POINTER_PROTOCOL EFI_ABSOLUTE_POINTER_PROTOCOL;

typedef struct {
	UINT64 AbsoluteMinX;
	UINT64 AbsoluteMinY;
	UINT64 AbsoluteMinZ;
	UINT64 AbsoluteMaxX;
	UINT64 AbsoluteMaxY;
	UINT64 AbsoluteMaxZ;
	UINT32 Attributes;
} EFI_ABSOLUTE_POINTER_MODE;

#define EFI_ABSP_SupportsAltActive 0x00000001
#define EFI_ABSP_SupportsPressureAsZ 0x00000002

typedef struct {
	UINT64 CurrentX;
	UINT64 CurrentY;
	UINT64 CurrentZ;
	UINT32 ActiveButtons;
} EFI_ABSOLUTE_POINTER_STATE;

#define EFI_ABSP_TouchActive 0x00000001
#define EFI_ABS_AltActive 0x00000002

typedef EFI_STATUS(EFIAPI *EFI_ABSOLUTE_POINTER_RESET)(EFI_ABSOLUTE_POINTER_PROTOCOL *This,
						       BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_ABSOLUTE_POINTER_GET_STATE)(EFI_ABSOLUTE_POINTER_PROTOCOL *This,
							   EFI_ABSOLUTE_POINTER_STATE *State);

struct _EFI_ABSOLUTE_POINTER_PROTOCOL {
	EFI_ABSOLUTE_POINTER_RESET Reset;
	EFI_ABSOLUTE_POINTER_GET_STATE GetState;
	EFI_EVENT WaitForInput;
	EFI_ABSOLUTE_POINTER_MODE *Mode;
};
_Static_assert(sizeof(EFI_ABSOLUTE_POINTER_MODE) == 56, "EFI_ABSOLUTE_POINTER_MODE layout");
_Static_assert(sizeof(EFI_ABSOLUTE_POINTER_PROTOCOL) == 32, "EFI_ABSOLUTE_POINTER layout");

#endif
