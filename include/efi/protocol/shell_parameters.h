/* EFI_SHELL_PARAMETERS_PROTOCOL (UEFI Shell Specification 2.2, section 2.3): installed by a
 * shell on the image handle of every program it starts, with the parsed command line and
 * the program's standard input, output and error. */
#ifndef EFI_PROTOCOL_SHELL_PARAMETERS_H
#define EFI_PROTOCOL_SHELL_PARAMETERS_H

#include <efi/types.h>

#define EFI_SHELL_PARAMETERS_PROTOCOL_GUID                                                         \
	EFI_GUID_INIT(0x752f3136, 0x4e16, 0x4fdc, 0xa2, 0x2a, 0xe5, 0xf4, 0x68, 0x12, 0xf4, 0xca)

/* An open shell file; it behaves as an EFI_FILE_PROTOCOL (the console streams too). */
typedef VOID *SHELL_FILE_HANDLE;

typedef struct {
	CHAR16 **Argv; /* Argc strings: the program's name as invoked, then its arguments */
	UINTN Argc;
	SHELL_FILE_HANDLE StdIn;
	SHELL_FILE_HANDLE StdOut;
	SHELL_FILE_HANDLE StdErr;
} EFI_SHELL_PARAMETERS_PROTOCOL;
_Static_assert(sizeof(EFI_SHELL_PARAMETERS_PROTOCOL) == 40, "EFI_SHELL_PARAMETERS layout");

#endif
