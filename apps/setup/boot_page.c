/* The boot page: the boot timeout, the boot options in BootOrder's order (a checkbox each
 * to enable or disable), forms to move an option up or down or delete it, and actions to add
 * an option or boot from a file. Moves change the browser's copy (and the rows' texts) and
 * are saved with the rest; a deletion or an addition saves and rebuilds the forms. */
#include "boot_page.h"
#include "ui.h"

#define FORM_UP SETUP_SUBFORM(SETUP_FORM_BOOT, 1)
#define FORM_DOWN SETUP_SUBFORM(SETUP_FORM_BOOT, 2)
#define FORM_DELETE SETUP_SUBFORM(SETUP_FORM_BOOT, 3)
#define QID(n) SETUP_QID(SETUP_FORM_BOOT, n)
#define Q_TIMEOUT 1
#define Q_UP 2
#define Q_DOWN 3
#define Q_DELETE 4
#define Q_ADD 5
#define Q_START 6
#define Q_ROW 0x10	  /* + row: the enable checkbox */
#define Q_ROW_UP 0x30	  /* + row: move up */
#define Q_ROW_DOWN 0x50	  /* + row: move down */
#define Q_ROW_DELETE 0x70 /* + row: delete */

static struct boot_store rows;		  /* as the forms were built */
static EFI_STRING_ID row_text[BOOT_ROWS]; /* each row's description */

/* This page, for the browser's copy of its store. */
static const struct setup_page *page(void)
{
	return setup_page_of(SETUP_FORM_BOOT);
}

static void goto_form(struct setup_build *b, const char *text, const char *help, UINT8 q,
		      EFI_FORM_ID form)
{
	struct ifrb_question g = setup_q(setup_str(b, text), setup_str(b, help), QID(q), 0, 0, 0);

	ifrb_goto(&b->ifr, &g, form);
}

static void action(struct setup_build *b, EFI_STRING_ID text, EFI_STRING_ID help, UINT8 q)
{
	struct ifrb_question a = setup_q(text, help, QID(q), 0, 0, 0);

	ifrb_action(&b->ifr, &a);
}

static void main_form(struct setup_build *b)
{
	struct ifrb_question t =
	    setup_q(setup_str(b, "Boot timeout (seconds)"),
		    setup_str(b, "How long the boot menu waits (the Timeout variable)"),
		    QID(Q_TIMEOUT), SETUP_FORM_BOOT, BOOT_OFF_TIMEOUT, 0);
	EFI_STRING_ID help = setup_str(b, "Enter enables or disables the option");

	ifrb_form(&b->ifr, SETUP_FORM_BOOT, setup_str(b, "Boot options"));
	ifrb_numeric(&b->ifr, &t, 2, 0, 0xffff, 1);
	ifrb_subtitle(&b->ifr, setup_str(b, "Boot order (enabled options are marked):"));
	for (unsigned i = 0; i < rows.count; i++) {
		struct ifrb_question c = setup_q(row_text[i], help, QID(Q_ROW + i), SETUP_FORM_BOOT,
						 BOOT_OFF_ACTIVE(i), 0);
		ifrb_checkbox(&b->ifr, &c);
	}
	ifrb_subtitle(&b->ifr, setup_str(b, ""));
	goto_form(b, "Move an option up", "Changes the boot order", Q_UP, FORM_UP);
	goto_form(b, "Move an option down", "Changes the boot order", Q_DOWN, FORM_DOWN);
	goto_form(b, "Delete an option", "Removes a Boot#### variable", Q_DELETE, FORM_DELETE);
	action(b, setup_str(b, "Add an option from a file"),
	       setup_str(b, "Choose an EFI program on a disk"), Q_ADD);
	action(b, setup_str(b, "Boot from a file"), setup_str(b, "Start an EFI program on a disk"),
	       Q_START);
	ifrb_end(&b->ifr);
}

/* A form of one action a row. */
static void rows_form(struct setup_build *b, EFI_FORM_ID form, const char *title, UINT8 q)
{
	EFI_STRING_ID help = setup_str(b, title);

	ifrb_form(&b->ifr, form, setup_str(b, title));
	ifrb_subtitle(&b->ifr, setup_str(b, "Enter on an option; F10 saves the order"));
	for (unsigned i = 0; i < rows.count; i++)
		action(b, row_text[i], help, (UINT8)(q + i));
	ifrb_end(&b->ifr);
}

static void boot_build(struct setup_build *b)
{
	CHAR16 text[80];

	boot_vars_load(&rows);
	for (unsigned i = 0; i < rows.count; i++) {
		boot_vars_description(rows.number[i], text, 80);
		row_text[i] = strb_add16(&b->str, text);
	}
	main_form(b);
	rows_form(b, FORM_UP, "Move an option up", Q_ROW_UP);
	rows_form(b, FORM_DOWN, "Move an option down", Q_ROW_DOWN);
	rows_form(b, FORM_DELETE, "Delete an option", Q_ROW_DELETE);
}

static EFI_STATUS boot_load(UINT8 *data)
{
	return boot_vars_load((struct boot_store *)data);
}

static EFI_STATUS boot_save(const UINT8 *data)
{
	return boot_vars_save((const struct boot_store *)data);
}

/* The rows' texts after a move: each row names its option. */
static void relabel(const struct boot_store *s)
{
	CHAR16 text[80];

	for (unsigned i = 0; i < s->count && i < BOOT_ROWS; i++) {
		boot_vars_description(s->number[i], text, 80);
		setup_set_string(row_text[i], text);
	}
}

static EFI_STATUS move(unsigned row, bool up)
{
	struct boot_store s;
	EFI_STATUS status = setup_browser_get(page(), (UINT8 *)&s);

	if (EFI_ERROR(status) || !boot_store_move(&s, row, up))
		return status;
	status = setup_browser_set(page(), (UINT8 *)&s);
	if (!EFI_ERROR(status))
		relabel(&s);
	return status;
}

/* Deletes a row's option once confirmed: saves the page and rebuilds. */
static EFI_STATUS delete (unsigned row, EFI_BROWSER_ACTION_REQUEST *request)
{
	struct boot_store s;
	CHAR16 text[60];
	char question[120];
	EFI_STATUS status = setup_browser_get(page(), (UINT8 *)&s);

	if (EFI_ERROR(status) || row >= s.count)
		return status;
	boot_vars_description(s.number[row], text, 60);
	format_sn(question, sizeof(question), "Delete Boot%04X \"%ls\"?", s.number[row], text);
	if (!setup_confirm(question))
		return EFI_SUCCESS;
	s.remove[row] = 1;
	status = setup_browser_set(page(), (UINT8 *)&s);
	if (!EFI_ERROR(status))
		setup_rebuild(SETUP_FORM_BOOT, request);
	return status;
}

static EFI_STATUS boot_callback(EFI_BROWSER_ACTION action, EFI_QUESTION_ID id, UINT8 type,
				EFI_IFR_TYPE_VALUE *value, EFI_BROWSER_ACTION_REQUEST *request)
{
	unsigned q = id & 0xff;

	if (action != EFI_BROWSER_ACTION_CHANGED)
		return action == EFI_BROWSER_ACTION_CHANGING ? EFI_SUCCESS : EFI_UNSUPPORTED;
	if (q == Q_ADD)
		return boot_file_add(request);
	if (q == Q_START)
		return boot_file_start();
	if (q >= Q_ROW_UP && q < Q_ROW_UP + BOOT_ROWS)
		return move(q - Q_ROW_UP, true);
	if (q >= Q_ROW_DOWN && q < Q_ROW_DOWN + BOOT_ROWS)
		return move(q - Q_ROW_DOWN, false);
	if (q >= Q_ROW_DELETE && q < Q_ROW_DELETE + BOOT_ROWS)
		return delete (q - Q_ROW_DELETE, request);
	return EFI_UNSUPPORTED;
}

SETUP_PAGE(boot, .form = SETUP_FORM_BOOT, .rank = 10, .title = "Boot options",
	   .help = "Boot order, timeout, options, boot from a file", .store = "SetupBoot",
	   .store_size = sizeof(struct boot_store), .build = boot_build, .load = boot_load,
	   .save = boot_save, .callback = boot_callback);
