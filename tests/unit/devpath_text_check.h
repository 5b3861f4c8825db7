/* Helpers of the device path text tests (devpath_text_check.c). */
#ifndef TEST_DEVPATH_TEXT_CHECK_H
#define TEST_DEVPATH_TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

bool dpt_str16_eq(const CHAR16 *a, const CHAR16 *b);
void dpt_print16(const char *prefix, const CHAR16 *s);
void dpt_check_round_trip(const CHAR16 *in, const CHAR16 *expected, bool display, bool shortcuts);
void dpt_check_to_text(const CHAR16 *in, const CHAR16 *expected, bool display, bool shortcuts);
void dpt_check_node_bytes(const UINT8 *bytes, size_t len, const CHAR16 *expected);

#endif
