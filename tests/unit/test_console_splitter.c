/* The console splitter (drivers/console_splitter) with fake text devices: output going to
 * every device, the shared mode list, devices coming and going, and input merged from two
 * keyboards with key notifications registered on the splitter. Also the text input library
 * (drivers/text_input) that the fake keyboards are built on. */
#include <string.h>

#include "support/test.h"
#include <efi/protocol/loaded_image.h>
#include <ember/drivers/console_splitter.h>
#include <ember/core/core.h>
#include <ember/drivers/text_input.h>

void test_install_builtin_drivers(void);

static const EFI_GUID out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
static const EFI_GUID in_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
static const EFI_GUID in_ex_guid = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;

/* ---- A fake text output device: records text, offers the sizes it is given ---- */

struct fake_out {
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL proto;
	SIMPLE_TEXT_OUTPUT_MODE mode;
	const UINT32 (*sizes)[2];
	EFI_HANDLE handle;
	char text[256];
	int set_modes, clears;
};

static struct fake_out *fake(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	return (struct fake_out *)this;
}

/* Like some real devices, Reset takes the fake back to its mode 0. */
static EFI_STATUS EFIAPI f_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN ext)
{
	fake(this)->mode.Mode = 0;
	fake(this)->mode.Attribute = 0x07;
	fake(this)->mode.CursorColumn = fake(this)->mode.CursorRow = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_output(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *s)
{
	struct fake_out *f = fake(this);
	size_t n = strlen(f->text);

	for (; *s && n + 1 < sizeof(f->text); s++) {
		f->text[n++] = (char)*s;
		if (*s >= 0x20)
			f->mode.CursorColumn++;
	}
	f->text[n] = 0;
	return EFI_SUCCESS;
}

/* A fake device shows no CJK ideographs. */
static EFI_STATUS EFIAPI f_test(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *s)
{
	for (; *s; s++)
		if (*s >= 0x4e00 && *s < 0xa000)
			return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_query(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode, UINTN *cols,
				 UINTN *rows)
{
	struct fake_out *f = fake(this);

	if (mode >= (UINTN)f->mode.MaxMode || !f->sizes[mode][0])
		return EFI_UNSUPPORTED;
	*cols = f->sizes[mode][0];
	*rows = f->sizes[mode][1];
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode)
{
	struct fake_out *f = fake(this);

	f->mode.Mode = (INT32)mode;
	f->mode.CursorColumn = f->mode.CursorRow = 0;
	f->set_modes++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_set_attribute(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN attribute)
{
	fake(this)->mode.Attribute = (INT32)attribute;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_clear(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	fake(this)->clears++;
	fake(this)->mode.CursorColumn = fake(this)->mode.CursorRow = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_set_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN col, UINTN row)
{
	fake(this)->mode.CursorColumn = (INT32)col;
	fake(this)->mode.CursorRow = (INT32)row;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI f_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN on)
{
	fake(this)->mode.CursorVisible = on;
	return EFI_SUCCESS;
}

static void fake_out_install(struct fake_out *f, const UINT32 (*sizes)[2], INT32 count)
{
	*f = (struct fake_out){
	    .proto = {f_reset, f_output, f_test, f_query, f_set_mode, f_set_attribute, f_clear,
		      f_set_cursor, f_enable_cursor, &f->mode},
	    .mode = {.MaxMode = count, .Attribute = 0x07},
	    .sizes = sizes,
	};
	ASSERT_STATUS(protocol_install(&f->handle, &out_guid, &f->proto), EFI_SUCCESS);
}

/* ---- A fake keyboard: keys from a script, through the text input library ---- */

struct fake_in {
	struct text_input input;
	EFI_HANDLE handle;
	EFI_KEY_DATA script[8];
	UINT32 next, count;
};

static void fake_poll(struct text_input *ti)
{
	struct fake_in *k = container_of(ti, struct fake_in, input);

	while (k->next < k->count && text_input_room(ti))
		text_input_push(ti, &k->script[k->next++]);
}

static const struct text_input_ops fake_in_ops = {.poll = fake_poll};

static void fake_in_install(struct fake_in *k)
{
	*k = (struct fake_in){0};
	ASSERT_STATUS(text_input_init(&k->input, &fake_in_ops, false), EFI_SUCCESS);
	ASSERT_STATUS(protocol_install_multiple(&k->handle, &in_guid, &k->input.in, &in_ex_guid,
						&k->input.in_ex, NULL),
		      EFI_SUCCESS);
}

static void fake_in_remove(struct fake_in *k)
{
	EXPECT_STATUS(protocol_uninstall_multiple(k->handle, &in_guid, &k->input.in, &in_ex_guid,
						  &k->input.in_ex, NULL),
		      EFI_SUCCESS);
	text_input_fini(&k->input);
}

static void type(struct fake_in *k, CHAR16 c)
{
	k->script[k->count++] = (EFI_KEY_DATA){{SCAN_NULL, c}, {EFI_SHIFT_STATE_VALID, 0}};
}

/* ---- The tests ---- */

static void start_splitter(void)
{
	static bool started;

	if (!started) {
		test_install_builtin_drivers();
		ASSERT_STATUS(console_splitter_start(CONSOLE_SPLITTER_ALL), EFI_SUCCESS);
		started = true;
	}
}

static const UINT32 terminal_sizes[][2] = {{80, 25}, {80, 50}, {100, 31}};
static const UINT32 screen_sizes[][2] = {{80, 25}, {0, 0}, {100, 31}, {128, 48}};

TEST(splitter_consoles_exist_without_devices)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con;
	UINTN cols, rows;

	start_splitter();
	con = core_st->ConOut;
	ASSERT(con && core_st->ConIn && core_st->StdErr && core_st->StdErr != con);
	EXPECT_EQ(con->Mode->MaxMode, 2);
	EXPECT_STATUS(con->QueryMode(con, 1, &cols, &rows), EFI_SUCCESS);
	EXPECT_STATUS(con->SetCursorPosition(con, 0, 0), EFI_SUCCESS);
	EXPECT_STATUS(con->OutputString(con, u"abc\r\nde\tf"), EFI_SUCCESS);
	EXPECT_EQ(con->Mode->CursorColumn, 9);
	EXPECT_EQ(con->Mode->CursorRow, 1);
	EXPECT_STATUS(console_splitter_start(CONSOLE_SPLITTER_ALL), EFI_ALREADY_STARTED);
}

TEST(splitter_output_goes_to_every_device_in_a_shared_mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con;
	static struct fake_out a, b;
	UINTN cols, rows;

	start_splitter();
	con = core_st->ConOut;
	fake_out_install(&a, terminal_sizes, 3);
	EXPECT_EQ(con->Mode->MaxMode, 3);
	EXPECT(a.set_modes >= 1);
	EXPECT_STATUS(con->SetMode(con, 2), EFI_SUCCESS);
	EXPECT_EQ(a.mode.Mode, 2);

	/* The screen has 100x31 too, but not 80x50: mode 1 becomes a hole, 2 stays. */
	fake_out_install(&b, screen_sizes, 4);
	EXPECT_EQ(con->Mode->MaxMode, 3);
	EXPECT_EQ(con->Mode->Mode, 2);
	EXPECT_EQ(b.mode.Mode, 2);
	EXPECT_STATUS(con->QueryMode(con, 1, &cols, &rows), EFI_UNSUPPORTED);
	EXPECT_STATUS(con->SetMode(con, 1), EFI_UNSUPPORTED);
	EXPECT_STATUS(con->QueryMode(con, 2, &cols, &rows), EFI_SUCCESS);
	EXPECT(cols == 100 && rows == 31);

	EXPECT_STATUS(con->OutputString(con, u"hi"), EFI_SUCCESS);
	EXPECT(!strcmp(a.text, "hi") && !strcmp(b.text, "hi"));
	EXPECT_EQ(con->Mode->CursorColumn, 2);
	EXPECT_STATUS(con->SetAttribute(con, 0x1e), EFI_SUCCESS);
	EXPECT(a.mode.Attribute == 0x1e && b.mode.Attribute == 0x1e);
	EXPECT_STATUS(con->SetAttribute(con, 0x80), EFI_UNSUPPORTED);
	EXPECT_STATUS(con->SetCursorPosition(con, 99, 30), EFI_SUCCESS);
	EXPECT(b.mode.CursorColumn == 99 && b.mode.CursorRow == 30);
	EXPECT_STATUS(con->SetCursorPosition(con, 100, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(con->EnableCursor(con, FALSE), EFI_SUCCESS);
	EXPECT(!a.mode.CursorVisible && !b.mode.CursorVisible);
	EXPECT_STATUS(con->ClearScreen(con), EFI_SUCCESS);
	EXPECT(a.clears == 1 && b.clears == 1);
	/* StdErr writes to the same devices on its own. */
	EXPECT_STATUS(core_st->StdErr->OutputString(core_st->StdErr, u"E"), EFI_SUCCESS);
	EXPECT(!strcmp(a.text, "hiE"));

	/* The screen goes away: the splitter lets go of it first, output reaches only a. */
	EXPECT_STATUS(protocol_uninstall(b.handle, &out_guid, &b.proto), EFI_SUCCESS);
	EXPECT_STATUS(con->OutputString(con, u"!"), EFI_SUCCESS);
	EXPECT(!strcmp(a.text, "hiE!") && !strcmp(b.text, "hiE"));
	EXPECT_STATUS(con->QueryMode(con, 1, &cols, &rows), EFI_SUCCESS);
	EXPECT_EQ(con->Mode->Mode, 2);
	EXPECT_STATUS(protocol_uninstall(a.handle, &out_guid, &a.proto), EFI_SUCCESS);
	con->SetMode(con, 0);
	con->EnableCursor(con, TRUE);
	con->SetAttribute(con, 0x07);
}

/* A program's own text output (the EDK2 Shell's console logger, on its image handle, writing
 * to ConOut) is not taken as a device: ConOut's text would loop back into ConOut. */
static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *logger_target;
static int logger_depth;

static EFI_STATUS EFIAPI logger_output(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *s)
{
	EFI_STATUS status;

	if (++logger_depth > 2) {
		logger_depth--;
		return EFI_DEVICE_ERROR; /* the loop the splitter must not make */
	}
	f_output(this, s);
	status = logger_target->OutputString(logger_target, s);
	logger_depth--;
	return status;
}

TEST(splitter_leaves_a_programs_own_text_output_alone)
{
	static const EFI_GUID loaded_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	static EFI_LOADED_IMAGE_PROTOCOL loaded;
	static struct fake_out logger;

	start_splitter();
	logger_target = core_st->ConOut;
	fake_out_install(&logger, terminal_sizes, 3);
	EXPECT_STATUS(protocol_uninstall(logger.handle, &out_guid, &logger.proto), EFI_SUCCESS);
	logger.handle = NULL;
	logger.proto.OutputString = logger_output;
	ASSERT_STATUS(protocol_install_multiple(&logger.handle, &loaded_guid, &loaded, &out_guid,
						&logger.proto, NULL),
		      EFI_SUCCESS);
	EXPECT_STATUS(core_st->ConOut->OutputString(core_st->ConOut, u"x"), EFI_SUCCESS);
	EXPECT(!strcmp(logger.text, ""));
	EXPECT_STATUS(logger.proto.OutputString(&logger.proto, u"y"), EFI_SUCCESS);
	EXPECT(!strcmp(logger.text, "y"));
	EXPECT_STATUS(protocol_uninstall_multiple(logger.handle, &loaded_guid, &loaded, &out_guid,
						  &logger.proto, NULL),
		      EFI_SUCCESS);
}

/* With no device the cursor moves as on any console: width markers take no cell,
 * unknown characters are skipped with a warning and fail TestString. */
TEST(splitter_without_devices_moves_the_cursor_like_a_console)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con;

	start_splitter();
	con = core_st->ConOut;
	ASSERT_EQ(con->Mode->MaxMode, 2); /* no device */
	EXPECT_STATUS(con->SetMode(con, 0), EFI_SUCCESS);
	EXPECT_STATUS(con->OutputString(con, u"a\xfff1"
					     u"b\xfff2"),
		      EFI_SUCCESS);
	EXPECT_EQ(con->Mode->CursorColumn, 2);
	EXPECT_STATUS(con->OutputString(con, u"c\x1b"
					     u"d\x7f"),
		      EFI_WARN_UNKNOWN_GLYPH);
	EXPECT_EQ(con->Mode->CursorColumn, 4);
	EXPECT_STATUS(con->TestString(con, u"\x1b"), EFI_UNSUPPORTED);
	EXPECT_STATUS(con->TestString(con, u"ok\xfff1\r\n"), EFI_SUCCESS);
	EXPECT_STATUS(con->SetCursorPosition(con, 79, 24), EFI_SUCCESS);
	EXPECT_STATUS(con->OutputString(con, u"xy"), EFI_SUCCESS);
	EXPECT_EQ(con->Mode->CursorColumn, 1);
	EXPECT_EQ(con->Mode->CursorRow, 24);
	EXPECT_STATUS(con->Reset(con, FALSE), EFI_SUCCESS);
	EXPECT_EQ(con->Mode->CursorColumn, 0);
	EXPECT_EQ(con->Mode->CursorRow, 0);
}

TEST(splitter_reset_test_string_and_a_device_without_the_mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con;
	static const UINT32 small_sizes[][2] = {{80, 25}, {80, 50}};
	static struct fake_out a, c;

	start_splitter();
	con = core_st->ConOut;
	fake_out_install(&a, terminal_sizes, 3);
	EXPECT_STATUS(con->SetMode(con, 2), EFI_SUCCESS);
	EXPECT_STATUS(con->SetAttribute(con, 0x1e), EFI_SUCCESS);
	/* Reset took the device to its mode 0: the splitter puts it back in its own. */
	EXPECT_STATUS(con->Reset(con, FALSE), EFI_SUCCESS);
	EXPECT_EQ(a.mode.Mode, 2);
	EXPECT_EQ(con->Mode->Mode, 2);
	EXPECT_EQ(con->Mode->Attribute, 0x07);
	/* TestString asks every device. */
	EXPECT_STATUS(con->TestString(con, u"ok \u2500"), EFI_SUCCESS);
	EXPECT_STATUS(con->TestString(con, u"\u4e00"), EFI_UNSUPPORTED);

	/* A device without 100x31 comes: every device starts over in mode 0. */
	con->SetCursorPosition(con, 50, 20);
	fake_out_install(&c, small_sizes, 2);
	EXPECT_EQ(con->Mode->Mode, 0);
	EXPECT_EQ(con->Mode->MaxMode, 2);
	EXPECT(a.mode.Mode == 0 && c.mode.Mode == 0);
	EXPECT_EQ(con->Mode->CursorColumn, 0);
	EXPECT_EQ(con->Mode->CursorRow, 0);
	EXPECT_STATUS(protocol_uninstall(c.handle, &out_guid, &c.proto), EFI_SUCCESS);
	EXPECT_STATUS(protocol_uninstall(a.handle, &out_guid, &a.proto), EFI_SUCCESS);
	EXPECT_EQ(con->Mode->MaxMode, 2);
}

static UINT32 x_notified;

static EFI_STATUS EFIAPI on_x(EFI_KEY_DATA *key)
{
	x_notified++;
	return EFI_SUCCESS;
}

TEST(splitter_input_merges_keyboards_and_notifies_for_all)
{
	static struct fake_in k1, k2;
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex;
	EFI_KEY_DATA want = {{SCAN_NULL, 'x'}, {0, 0}}, key;
	EFI_INPUT_KEY plain;
	void *handle;

	start_splitter();
	ASSERT_STATUS(protocol_get(core_st->ConsoleInHandle, &in_ex_guid, (void **)&ex),
		      EFI_SUCCESS);
	fake_in_install(&k1);
	fake_in_install(&k2);
	x_notified = 0;
	ASSERT_STATUS(ex->RegisterKeyNotify(ex, &want, on_x, &handle), EFI_SUCCESS);
	type(&k1, 'x');
	type(&k2, 'y');
	type(&k2, 'x');
	/* Nobody reads: the splitter's timer takes the keys and the notifications run. */
	for (int i = 0; i < 5; i++)
		test_advance_time_ns(10 * 1000 * 1000);
	EXPECT_EQ(x_notified, 2);
	EXPECT_STATUS(ex->ReadKeyStrokeEx(ex, &key), EFI_SUCCESS);
	EXPECT_EQ(key.Key.UnicodeChar, 'x');
	EXPECT_STATUS(core_st->ConIn->ReadKeyStroke(core_st->ConIn, &plain), EFI_SUCCESS);
	EXPECT_EQ(plain.UnicodeChar, 'y');
	EXPECT_STATUS(core_st->ConIn->ReadKeyStroke(core_st->ConIn, &plain), EFI_SUCCESS);
	EXPECT_EQ(plain.UnicodeChar, 'x');
	EXPECT_STATUS(core_st->ConIn->ReadKeyStroke(core_st->ConIn, &plain), EFI_NOT_READY);
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, handle), EFI_SUCCESS);
	EXPECT_STATUS(ex->UnregisterKeyNotify(ex, handle), EFI_INVALID_PARAMETER);

	/* A keyboard that is gone gives no more keys; WaitForKey sees the other one's. */
	fake_in_remove(&k1);
	type(&k2, 'z');
	EXPECT_STATUS(event_check(core_st->ConIn->WaitForKey), EFI_SUCCESS);
	EXPECT_STATUS(core_st->ConIn->ReadKeyStroke(core_st->ConIn, &plain), EFI_SUCCESS);
	EXPECT_EQ(plain.UnicodeChar, 'z');
	fake_in_remove(&k2);
}

TEST(text_input_key_matching)
{
	EFI_KEY_DATA ctrl_c = {{SCAN_NULL, 'c'},
			       {EFI_SHIFT_STATE_VALID | EFI_LEFT_CONTROL_PRESSED, 0}};
	EFI_KEY_DATA got = {{SCAN_NULL, 3}, {EFI_SHIFT_STATE_VALID | EFI_RIGHT_CONTROL_PRESSED, 0}};
	EFI_KEY_DATA f5 = {{SCAN_F5, 0}, {0, 0}};
	EFI_KEY_DATA toggled = {{SCAN_F5, 0}, {0, EFI_TOGGLE_STATE_VALID | EFI_NUM_LOCK_ACTIVE}};

	EXPECT(text_input_key_matches(&ctrl_c, &got));
	got.KeyState.KeyShiftState = EFI_SHIFT_STATE_VALID;
	EXPECT(!text_input_key_matches(&ctrl_c, &got));
	EXPECT(text_input_key_matches(&f5, &toggled)); /* states not marked valid don't count */
	EXPECT(!text_input_key_matches(&toggled, &f5));
}
