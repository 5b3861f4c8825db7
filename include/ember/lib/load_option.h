/* EFI_LOAD_OPTION (UEFI 2.10, 3.1.3): the contents of Boot####, Driver####, SysPrep####
 * and PlatformRecovery####, taken apart and put together. Pure logic. */
#ifndef EMBER_LOAD_OPTION_H
#define EMBER_LOAD_OPTION_H

#include <stdbool.h>
#include <efi/global_variable.h>
#include <efi/protocol/device_path.h>

/* A load option taken apart; the pointers point into the variable's data. */
struct load_option {
	UINT32 attributes;
	const CHAR16 *description;		   /* terminated, but possibly unaligned */
	UINTN description_size;			   /* bytes, with the terminator */
	const EFI_DEVICE_PATH_PROTOCOL *file_path; /* FilePathList: its first path is the image's */
	UINT16 file_path_size;			   /* FilePathListLength, all paths */
	const UINT8 *optional_data;
	UINTN optional_size;
};

/* Parses and validates: known attributes and category, a terminated description, whole
 * device paths filling exactly FilePathListLength bytes. False for anything else. */
bool load_option_parse(const void *data, UINTN size, struct load_option *option);
/* The same, saying why: NULL for a valid option, else a constant string saying what is
 * wrong with it, for the boot manager's log. Logs nothing itself: the runtime's variable
 * checks parse options too. */
const char *load_option_problem(const void *data, UINTN size, struct load_option *option);

/* Bytes a serialized option takes. */
UINTN load_option_size(const struct load_option *option);
/* Writes the option into out (load_option_size bytes). */
void load_option_write(const struct load_option *option, void *out);

#endif
