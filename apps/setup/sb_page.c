/* The Secure Boot page: the state (SecureBoot, SetupMode, Audit and Deployed Mode, the
 * signatures in PK, KEK, db and dbx, whether keys may be changed now), enrolment of each
 * database from a file, deletion of one signature (a sub-form lists them), the default
 * keys and Setup Mode. Each change rebuilds the forms, so the state shown is the new one
 * and a line says how the last change went. */
#include "sb.h"
#include "setup.h"
#include "pure/sb_file.h"
#include <ember/lib/guids.h>

#define FORM_DELETE SETUP_SUBFORM(SETUP_FORM_SECURE_BOOT, 1)
#define QID(n) SETUP_QID(SETUP_FORM_SECURE_BOOT, n)
#define Q_ENROLL 1 /* + enum sb_key */
#define Q_DEFAULTS 5
#define Q_SETUP_MODE 6
#define Q_DELETE_FORM 7
#define Q_ENTRY 0x10 /* + row of the deletion form */
#define ROWS 0xe0
#define PATH_UNITS 260

/* The deletion form's rows as they were built: which database, which entry. */
static struct {
	UINT8 key;
	UINT16 index;
} rows[ROWS];
static UINTN row_count;
static char last[120] = ""; /* how the last change went */

static const char *mode_text(INT8 v, const char *on, const char *off)
{
	return v < 0 ? "not offered by this firmware" : v ? on : off;
}

static void text(struct setup_build *b, const char *fmt, ...)
{
	char line[120];
	va_list ap;

	va_start(ap, fmt);
	format_vsn(line, sizeof(line), fmt, ap);
	va_end(ap);
	ifrb_text(&b->ifr, setup_str(b, line), setup_str(b, ""), 0);
}

static void action(struct setup_build *b, const char *prompt, const char *help, UINT8 q)
{
	struct ifrb_question a = setup_q(setup_str(b, prompt), setup_str(b, help), QID(q), 0, 0, 0);

	ifrb_action(&b->ifr, &a);
}

static void state_lines(struct setup_build *b)
{
	struct sb_state s;

	if (EFI_ERROR(sb_state_read(&s))) {
		text(b, "The Secure Boot state could not be read");
		return;
	}
	text(b, "Secure Boot: %s", s.secure_boot == 1 ? "enabled" : "disabled");
	text(b, "Mode: %s", s.setup_mode == 1 ? "Setup Mode (no PK)" : "User Mode");
	text(b, "Audit Mode: %s", mode_text(s.audit_mode, "on", "off"));
	text(b, "Deployed Mode: %s", mode_text(s.deployed_mode, "on", "off"));
	text(b, "Signatures: PK %u, KEK %u, db %u, dbx %u", s.entries[SB_PK], s.entries[SB_KEK],
	     s.entries[SB_DB], s.entries[SB_DBX]);
	text(b, "Default keys: %s", s.defaults ? "present" : "none in this firmware");
	text(b, "Key changes: %s",
	     s.owner ? "allowed (setup opened at start)"
		     : "locked: only in setup opened at start, before any program ran");
}

static void main_form(struct setup_build *b)
{
	static const char *const enroll[SB_KEYS] = {
	    "Enroll PK from a file", "Enroll KEK from a file", "Enroll db from a file",
	    "Enroll dbx from a file"};
	struct ifrb_question g = setup_q(setup_str(b, "Delete a key"),
					 setup_str(b, "Lists the signatures of KEK, db and dbx"),
					 QID(Q_DELETE_FORM), 0, 0, 0);

	ifrb_form(&b->ifr, SETUP_FORM_SECURE_BOOT, setup_str(b, "Secure Boot"));
	state_lines(b);
	if (last[0])
		text(b, "Last change: %s", last);
	ifrb_subtitle(&b->ifr, setup_str(b, ""));
	for (UINT8 k = 0; k < SB_KEYS; k++)
		action(b, enroll[k],
		       "A certificate (DER, PEM), an .esl list or a signed .auth update",
		       Q_ENROLL + k);
	ifrb_goto(&b->ifr, &g, FORM_DELETE);
	action(b, "Restore the default keys", "PK, KEK, db and dbx from the firmware's defaults",
	       Q_DEFAULTS);
	action(b, "Reset to Setup Mode", "Deletes PK: Secure Boot turns off", Q_SETUP_MODE);
	ifrb_end(&b->ifr);
}

/* One row of the deletion form per signature of KEK, db and dbx (and PK). */
static void delete_rows(struct setup_build *b, enum sb_key key)
{
	struct sb_entry e;
	UINT8 *data;
	UINTN size;
	char line[100];

	if (EFI_ERROR(sb_key_read(key, &data, &size)))
		return;
	for (UINT32 i = 0; row_count < ROWS && sb_siglist_entry(data, size, i, &e); i++) {
		const char *type = guid_name(&e.type);
		struct ifrb_question q;

		format_sn(line, sizeof(line), "%ls #%u: %s, %u bytes, owner %pG", sb_key_name(key),
			  i + 1, type ? type : "?", (unsigned)e.size, &e.owner);
		q = setup_q(setup_str(b, line), setup_str(b, "Enter deletes this signature"),
			    QID(Q_ENTRY + row_count), 0, 0, 0);
		ifrb_action(&b->ifr, &q);
		rows[row_count].key = (UINT8)key;
		rows[row_count++].index = (UINT16)i;
	}
	app_free(data);
}

static void delete_form(struct setup_build *b)
{
	ifrb_form(&b->ifr, FORM_DELETE, setup_str(b, "Delete a key"));
	row_count = 0;
	for (UINT8 k = 0; k < SB_KEYS; k++)
		delete_rows(b, (enum sb_key)k);
	if (!row_count)
		text(b, "No keys are enrolled");
	ifrb_end(&b->ifr);
}

static void sb_build(struct setup_build *b)
{
	main_form(b);
	delete_form(b);
}

static void report(const char *what, EFI_STATUS status, const char *why)
{
	if (EFI_ERROR(status))
		format_sn(last, sizeof(last), "%s failed: %s (%r)", what, why ? why : "", status);
	else
		format_sn(last, sizeof(last), "%s: done", what);
	app_print("\r\nsetup: %s\r\n", last);
}

static EFI_STATUS enroll(enum sb_key key)
{
	static CHAR16 path[PATH_UNITS];
	EFI_HANDLE volume;
	const char *why = NULL;
	char what[32];
	EFI_STATUS status = setup_pick_file("Choose a key file", &volume, path, PATH_UNITS);

	if (status == EFI_ABORTED)
		return EFI_SUCCESS;
	format_sn(what, sizeof(what), "enrolling %ls", sb_key_name(key));
	if (!EFI_ERROR(status))
		status = sb_enroll_file(key, volume, path, &why);
	else
		why = "no file was chosen";
	report(what, status, why);
	return status;
}

static void run(UINT8 q)
{
	const char *why = NULL;
	EFI_STATUS status;

	if (q >= Q_ENROLL && q < Q_ENROLL + SB_KEYS) {
		enroll((enum sb_key)(q - Q_ENROLL));
	} else if (q == Q_DEFAULTS &&
		   setup_confirm("Replace PK, KEK, db and dbx by the defaults?")) {
		status = sb_restore_defaults(&why);
		report("restoring the default keys", status, why);
	} else if (q == Q_SETUP_MODE && setup_confirm("Delete PK and turn Secure Boot off?")) {
		status = sb_setup_mode(&why);
		report("Setup Mode", status, why);
	} else if (q >= Q_ENTRY && q - Q_ENTRY < row_count &&
		   setup_confirm("Delete this signature?")) {
		status = sb_delete_entry((enum sb_key)rows[q - Q_ENTRY].key,
					 rows[q - Q_ENTRY].index, &why);
		report("deleting a signature", status, why);
	}
}

static EFI_STATUS sb_callback(EFI_BROWSER_ACTION action, EFI_QUESTION_ID id, UINT8 type,
			      EFI_IFR_TYPE_VALUE *value, EFI_BROWSER_ACTION_REQUEST *request)
{
	if (action == EFI_BROWSER_ACTION_CHANGING)
		return EFI_SUCCESS;
	if (action != EFI_BROWSER_ACTION_CHANGED)
		return EFI_UNSUPPORTED;
	run((UINT8)id);
	/* The state lines and the deletion list change: build them again. */
	setup_rebuild(SETUP_FORM_SECURE_BOOT, request);
	return EFI_SUCCESS;
}

SETUP_PAGE(secure_boot, .form = SETUP_FORM_SECURE_BOOT, .rank = 300, .title = "Secure Boot",
	   .help = "State, keys (PK, KEK, db, dbx), defaults, Setup Mode", .build = sb_build,
	   .callback = sb_callback);
