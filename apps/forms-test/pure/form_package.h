/* The forms-test driver's HII packages, built by hand from the opcode layouts of UEFI 2.10
 * 33.3.8 (no VFR compiler): a form set of two forms over one buffer varstore, and its
 * English strings. Pure, so that the unit tests parse the very bytes the driver publishes. */
#ifndef APPS_FORMS_TEST_FORM_PACKAGE_H
#define APPS_FORMS_TEST_FORM_PACKAGE_H

#include <stddef.h>
#include <efi/types.h>

#define FT_GUID_INIT                                                                               \
	{                                                                                          \
		0x8d2b7f3e, 0x51a4, 0x4c06,                                                        \
		{                                                                                  \
			0x9b, 0x1e, 0x2f, 0x44, 0x6a, 0x70, 0x13, 0xc5                             \
		}                                                                                  \
	}

/* The settings, as the varstore "FtData" of FT_GUID holds them (and the variable). */
#define FT_OFF_ENABLE 0 /* checkbox, 1 byte */
#define FT_OFF_COUNT 2	/* numeric, 2 bytes, 1..100 */
#define FT_OFF_MODE 4	/* one-of, 1 byte: 0 off, 1 fast, 2 slow */
#define FT_OFF_NAME 8	/* string, 8 characters */
#define FT_NAME_CHARS 8
#define FT_OFF_ORDER 24 /* ordered list, 3 UINT8 entries: 1 disk, 2 network, 3 shell */
#define FT_ORDER_COUNT 3
#define FT_OFF_DATE 28	/* date, EFI_HII_DATE */
#define FT_OFF_TIME 32	/* time, EFI_HII_TIME */
#define FT_OFF_LEVEL 36 /* numeric 0..9, shown when enable is 1, 7 refused (inconsistentif) */
#define FT_OFF_TURBO 37 /* checkbox, grayed out while mode is 0 (off) */
#define FT_OFF_READS 38 /* numeric, read-only, refreshed: how often the driver was asked */
#define FT_DATA_SIZE 40
#define FT_COUNT_NO_SUBMIT 13 /* a count that cannot be saved (nosubmitif) */

#define FT_QID_ENABLE 0x1001
#define FT_QID_COUNT 0x1002
#define FT_QID_MODE 0x1003
#define FT_QID_NAME 0x1004
#define FT_QID_MORE 0x1005
#define FT_QID_ACTION 0x1006
#define FT_QID_ORDER 0x1007
#define FT_QID_DATE 0x1008
#define FT_QID_TIME 0x1009
#define FT_QID_LEVEL 0x100a
#define FT_QID_TURBO 0x100b
#define FT_QID_ADD 0x100c      /* adds a text to the second form through UpdatePackageList */
#define FT_QID_PASSWORD 0x100d /* set through the Callback handshake, 2 to 8 characters */
#define FT_PASSWORD_CHARS 8
#define FT_QID_CLOCK 0x100e /* time in the real-time clock, refreshed each second */
#define FT_QID_READS 0x100f
#define FT_VARSTORE_ID 1
#define FT_FORM_MAIN 1
#define FT_FORM_MORE 2

/* Writes the forms package (its header included) into out, with `added` texts at the end
 * of the second form; returns its size, 0 when room is too small. */
size_t ft_forms_package(UINT8 *out, size_t room, unsigned added);

/* Writes the English string package into out; returns its size, 0 when room is too small. */
size_t ft_strings_package(UINT8 *out, size_t room);

#endif
