/* The serial terminal driver (drivers/terminal) on a fake SerialIo: the child and its
 * device path, what output sends down the line, keys decoded from what comes up it, and
 * the child going away with the driver. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <efi/protocol/serial_io.h>
#include <efi/protocol/simple_text_input.h>
#include <efi/protocol/simple_text_output.h>

void test_install_builtin_drivers(void);

static const EFI_GUID serial_guid = EFI_SERIAL_IO_PROTOCOL_GUID;
static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static const EFI_GUID out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
static const EFI_GUID in_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;

#pragma pack(push, 1)
struct fake_path {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

static struct {
	EFI_SERIAL_IO_PROTOCOL serial;
	EFI_SERIAL_IO_MODE mode;
	struct fake_path path;
	EFI_HANDLE handle;
	char sent[4096];
	size_t sent_len;
	int writes;
	UINT8 incoming[64];
	size_t in_len, in_pos;
} line;

static EFI_STATUS EFIAPI s_reset(EFI_SERIAL_IO_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI s_set_attributes(EFI_SERIAL_IO_PROTOCOL *this, UINT64 baud, UINT32 fifo,
					  UINT32 timeout, EFI_PARITY_TYPE parity, UINT8 bits,
					  EFI_STOP_BITS_TYPE stop)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI s_set_control(EFI_SERIAL_IO_PROTOCOL *this, UINT32 control)
{
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI s_get_control(EFI_SERIAL_IO_PROTOCOL *this, UINT32 *control)
{
	*control = line.in_pos < line.in_len ? 0 : EFI_SERIAL_INPUT_BUFFER_EMPTY;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI s_write(EFI_SERIAL_IO_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	size_t n = MIN(*size, sizeof(line.sent) - 1 - line.sent_len);

	line.writes++;
	memcpy(line.sent + line.sent_len, buffer, n);
	line.sent_len += n;
	line.sent[line.sent_len] = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI s_read(EFI_SERIAL_IO_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	UINTN n = 0;

	while (n < *size && line.in_pos < line.in_len)
		((UINT8 *)buffer)[n++] = line.incoming[line.in_pos++];
	*size = n;
	return EFI_SUCCESS;
}

static void comes_in(const char *bytes)
{
	size_t n = strlen(bytes);

	memcpy(line.incoming + line.in_len, bytes, n);
	line.in_len += n;
}

static void fake_line_install(void)
{
	line.serial = (EFI_SERIAL_IO_PROTOCOL){EFI_SERIAL_IO_PROTOCOL_REVISION,
					       s_reset,
					       s_set_attributes,
					       s_set_control,
					       s_get_control,
					       s_write,
					       s_read,
					       &line.mode,
					       NULL};
	line.mode = (EFI_SERIAL_IO_MODE){.Timeout = 1000000,
					 .BaudRate = 115200,
					 .ReceiveFifoDepth = 16,
					 .DataBits = 8,
					 .Parity = NoParity,
					 .StopBits = OneStopBit};
	line.path.vendor.Header = (EFI_DEVICE_PATH_PROTOCOL){
	    HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(line.path.vendor), 0}};
	line.path.vendor.Guid = (EFI_GUID){
	    0x7e57c0de, 0x5e71, 0x4a11, {0x8a, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}};
	line.path.end = (EFI_DEVICE_PATH_PROTOCOL){
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	line.handle = NULL;
	ASSERT_STATUS(protocol_install_multiple(&line.handle, &serial_guid, &line.serial,
						&path_guid, &line.path, NULL),
		      EFI_SUCCESS);
}

/* The terminal child: the handle with SimpleTextOut whose path starts with the line's. */
static EFI_HANDLE find_child(void)
{
	EFI_HANDLE *handles, found = NULL;
	UINTN count;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &out_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		if (!EFI_ERROR(protocol_get(handles[i], &path_guid, (void **)&path)) &&
		    dp_starts_with(path, &line.path.vendor.Header))
			found = handles[i];
	}
	pool_free(handles);
	return found;
}

TEST(terminal_child_speaks_vt100_and_decodes_keys)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in;
	EFI_DEVICE_PATH_PROTOCOL *path;
	EFI_INPUT_KEY key;
	EFI_HANDLE child;
	CHAR16 *text;

	test_install_builtin_drivers();
	fake_line_install();
	ASSERT_STATUS(driver_connect(line.handle, NULL, NULL, true), EFI_SUCCESS);
	child = find_child();
	ASSERT(child);
	ASSERT_STATUS(protocol_get(child, &path_guid, (void **)&path), EFI_SUCCESS);
	text = dp_to_text(path, false, true);
	EXPECT(text && !str16_cmp(text, u"VenHw(7E57C0DE-5E71-4A11-8A10-000000000001)"
					u"/Uart(115200,8,N,1)/VenUtf8()"));
	pool_free(text);

	ASSERT_STATUS(protocol_get(child, &out_guid, (void **)&out), EFI_SUCCESS);
	EXPECT(strstr(line.sent, "\x1b[2J")); /* cleared when it started */
	EXPECT_EQ(out->Mode->MaxMode, 3);
	line.sent_len = 0;
	EXPECT_STATUS(out->OutputString(out, u"Hi \u2502\r\n"), EFI_SUCCESS);
	EXPECT(!strcmp(line.sent, "Hi \xe2\x94\x82\r\n"));
	EXPECT_STATUS(out->SetCursorPosition(out, 2, 1), EFI_SUCCESS);
	EXPECT(strstr(line.sent, "\x1b[2;3H"));
	EXPECT_STATUS(out->SetCursorPosition(out, 80, 1), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetMode(out, 2), EFI_SUCCESS);
	EXPECT_STATUS(out->SetCursorPosition(out, 99, 30), EFI_SUCCESS);
	EXPECT_STATUS(out->SetMode(out, 3), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetMode(out, 0), EFI_SUCCESS);

	ASSERT_STATUS(protocol_get(child, &in_guid, (void **)&in), EFI_SUCCESS);
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	comes_in("\x1b[Aq\x1b");
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT(key.ScanCode == SCAN_UP && key.UnicodeChar == 0);
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT(key.ScanCode == 0 && key.UnicodeChar == 'q');
	/* ESC alone becomes the Esc key once nothing follows it for a while. */
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_NOT_READY);
	test_advance_time_ns(60 * 1000 * 1000);
	EXPECT_STATUS(in->ReadKeyStroke(in, &key), EFI_SUCCESS);
	EXPECT_EQ(key.ScanCode, SCAN_ESC);

	/* The driver lets go: the child goes, SerialIo is free again. */
	EXPECT_STATUS(driver_disconnect(line.handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(!find_child());
	EXPECT_STATUS(protocol_uninstall_multiple(line.handle, &serial_guid, &line.serial,
						  &path_guid, &line.path, NULL),
		      EFI_SUCCESS);
}

/* What one OutputString sends, from (col,row) of mode 0; *status gets its status. */
static const char *sent_for(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, UINTN col, UINTN row,
			    const CHAR16 *text, EFI_STATUS *status)
{
	out->SetCursorPosition(out, col, row);
	line.sent_len = 0;
	line.sent[0] = 0;
	*status = out->OutputString(out, (CHAR16 *)text);
	return line.sent;
}

static bool at(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, INT32 col, INT32 row)
{
	return out->Mode->CursorColumn == col && out->Mode->CursorRow == row;
}

TEST(terminal_output_bytes_and_cursor)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
	EFI_STATUS status;
	EFI_HANDLE child;

	test_install_builtin_drivers();
	fake_line_install();
	ASSERT_STATUS(driver_connect(line.handle, NULL, NULL, true), EFI_SUCCESS);
	child = find_child();
	ASSERT(child);
	ASSERT_STATUS(protocol_get(child, &out_guid, (void **)&out), EFI_SUCCESS);

	EXPECT(!strcmp(sent_for(out, 0, 0, u"Hello World!\r\n", &status), "Hello World!\r\n"));
	EXPECT(status == EFI_SUCCESS && at(out, 0, 1));
	EXPECT(!strcmp(sent_for(out, 3, 4, u"\u250c\u2500\u2510 caf\u00e9 \u20ac", &status),
		       "\xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90 caf\xc3\xa9 \xe2\x82\xac"));
	EXPECT(at(out, 3 + 10, 4));
	/* LF keeps the column, BS stops at the left edge, TAB pads with spaces to 8. */
	EXPECT(!strcmp(sent_for(out, 5, 2, u"\n", &status), "\n"));
	EXPECT(at(out, 5, 3));
	EXPECT(!strcmp(sent_for(out, 1, 0, u"\b\b", &status), "\b"));
	EXPECT(at(out, 0, 0));
	EXPECT(!strcmp(sent_for(out, 2, 0, u"\tx", &status), "      x"));
	EXPECT(at(out, 9, 0));
	EXPECT(!strcmp(sent_for(out, 78, 0, u"\t", &status), " "));
	EXPECT(at(out, 79, 0));
	/* The terminal wraps by itself: nothing extra is sent; at the bottom it scrolls. */
	EXPECT(!strcmp(sent_for(out, 78, 3, u"xyz", &status), "xyz"));
	EXPECT(at(out, 1, 4));
	EXPECT(!strcmp(sent_for(out, 79, 24, u"w\n", &status), "w\n"));
	EXPECT(at(out, 0, 24));
	/* Unknown characters are skipped with a warning, width markers quietly. */
	EXPECT(!strcmp(sent_for(out, 0, 0,
				u"a\x1b"
				u"b\x7f"
				u"c\x85"
				u"d\xfff1",
				&status),
		       "abcd"));
	EXPECT_STATUS(status, EFI_WARN_UNKNOWN_GLYPH);
	EXPECT(at(out, 4, 0));
	/* Reset: default colours, the cursor shown, the screen cleared, all in one write. */
	line.sent_len = 0;
	EXPECT_STATUS(out->Reset(out, FALSE), EFI_SUCCESS);
	EXPECT(!strcmp(line.sent, "\x1b[0m\x1b[?25h\x1b[2J\x1b[1;1H"));

	EXPECT_STATUS(driver_disconnect(line.handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_STATUS(protocol_uninstall_multiple(line.handle, &serial_guid, &line.serial,
						  &path_guid, &line.path, NULL),
		      EFI_SUCCESS);
}

TEST(terminal_sends_long_output_in_chunks)
{
	static CHAR16 text[1001];
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
	EFI_STATUS status;

	test_install_builtin_drivers();
	fake_line_install();
	ASSERT_STATUS(driver_connect(line.handle, NULL, NULL, true), EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(find_child(), &out_guid, (void **)&out), EFI_SUCCESS);
	for (int i = 0; i < 1000; i++)
		text[i] = 'a' + i % 26;
	line.writes = 0;
	sent_for(out, 0, 0, text, &status);
	EXPECT_EQ(line.sent_len, 1000); /* 12 wraps, none of them sent */
	EXPECT(line.writes > 1);
	EXPECT(at(out, 40, 12));
	EXPECT_STATUS(driver_disconnect(line.handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_STATUS(protocol_uninstall_multiple(line.handle, &serial_guid, &line.serial,
						  &path_guid, &line.path, NULL),
		      EFI_SUCCESS);
}
