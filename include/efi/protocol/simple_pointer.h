/* EFI_SIMPLE_POINTER_PROTOCOL (UEFI 2.10, 12.5): a mouse's movements and buttons. */
#ifndef EFI_PROTOCOL_SIMPLE_POINTER_H
#define EFI_PROTOCOL_SIMPLE_POINTER_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_SIMPLE_POINTER_PROTOCOL_GUID                                                           \
	EFI_GUID_INIT(0x31878c87, 0x0b75, 0x11d5, 0x9a, 0x4f, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)

typedef struct _EFI_SIMPLE_POINTER_PROTOCOL EFI_SIMPLE_POINTER_PROTOCOL;

typedef struct {
	INT32 RelativeMovementX;
	INT32 RelativeMovementY;
	INT32 RelativeMovementZ;
	BOOLEAN LeftButton;
	BOOLEAN RightButton;
} EFI_SIMPLE_POINTER_STATE;

typedef struct {
	UINT64 ResolutionX;
	UINT64 ResolutionY;
	UINT64 ResolutionZ;
	BOOLEAN LeftButton;
	BOOLEAN RightButton;
} EFI_SIMPLE_POINTER_MODE;

typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_POINTER_RESET)(EFI_SIMPLE_POINTER_PROTOCOL *This,
						     BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_SIMPLE_POINTER_GET_STATE)(EFI_SIMPLE_POINTER_PROTOCOL *This,
							 EFI_SIMPLE_POINTER_STATE *State);

struct _EFI_SIMPLE_POINTER_PROTOCOL {
	EFI_SIMPLE_POINTER_RESET Reset;
	EFI_SIMPLE_POINTER_GET_STATE GetState;
	EFI_EVENT WaitForInput;
	EFI_SIMPLE_POINTER_MODE *Mode;
};
_Static_assert(sizeof(EFI_SIMPLE_POINTER_STATE) == 16, "EFI_SIMPLE_POINTER_STATE layout");
_Static_assert(sizeof(EFI_SIMPLE_POINTER_PROTOCOL) == 32, "EFI_SIMPLE_POINTER layout");

#endif
