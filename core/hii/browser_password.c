#define LOG_PREFIX "browser: "
/* PASSWORD questions (UEFI 2.10, 33.3.8.3.56 and the Callback's password handshake of
 * 35.5): with the CALLBACK flag the driver decides. The browser first calls CHANGING with
 * string 0: EFI_SUCCESS means no old password is needed, an error that the old one must
 * be typed, which the browser then
 * passes as a string of the list (an error: wrong). The new password is typed twice and,
 * when both agree, passed the same way (a mismatch calls CHANGING with string 0 again so
 * that the driver starts over, as EDK2's browser does). Each typed password lives in the
 * string package only for its call, then is emptied. Without the CALLBACK flag the
 * password is the question's string in its varstore: the old one is asked when set. */
#include "browser.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define PASSWORD_CHARS 128

/* Passes a typed password to the driver as a new string of the list. */
static EFI_STATUS pass(struct browser *b, const struct ifr_statement *s, const CHAR16 *text)
{
	EFI_HII_STRING_PROTOCOL *hs = &hii_string_protocol;
	EFI_BROWSER_ACTION_REQUEST request = EFI_BROWSER_ACTION_REQUEST_NONE;
	EFI_IFR_TYPE_VALUE v = {0};
	EFI_STRING_ID id = 0;
	EFI_STATUS status;

	if (text) {
		status = hs->NewString(hs, (EFI_HII_HANDLE)b->list, &id, "en-US", NULL,
				       (EFI_STRING)text, NULL);
		if (EFI_ERROR(status))
			return status;
	}
	v.string = id;
	status = b->access->Callback(b->access, EFI_BROWSER_ACTION_CHANGING, s->question_id,
				     EFI_IFR_TYPE_STRING, &v, &request);
	if (id)
		hs->SetString(hs, (EFI_HII_HANDLE)b->list, id, "en-US", u"", NULL);
	return status;
}

/* The new password, typed twice: false (with the reason said) when cancelled or unlike. */
static bool new_password(struct browser *b, const struct ifr_statement *s, CHAR16 *text)
{
	CHAR16 again[PASSWORD_CHARS] = {0};

	text[0] = 0;
	if (!browser_read_line(b, "New password: ", text, s->max_len, BROWSER_MASKED) ||
	    !browser_read_line(b, "Again: ", again, s->max_len, BROWSER_MASKED))
		return false;
	if (str16_cmp(text, again)) {
		b->message = "The passwords differ: nothing is changed.";
		return false;
	}
	if (str16_len(text) < s->min_len) {
		b->message = "Too short: nothing is changed.";
		return false;
	}
	return true;
}

static void through_driver(struct browser *b, const struct ifr_statement *s)
{
	CHAR16 text[PASSWORD_CHARS] = {0};
	EFI_STATUS status = pass(b, s, NULL);

	if (EFI_ERROR(status)) { /* an old password is set */
		if (!browser_read_line(b, "Old password: ", text, s->max_len, BROWSER_MASKED))
			return;
		if (EFI_ERROR(pass(b, s, text))) {
			b->message = "Incorrect password.";
			return;
		}
	}
	if (!new_password(b, s, text)) {
		pass(b, s, NULL); /* the driver starts over */
		return;
	}
	status = pass(b, s, text);
	b->message = EFI_ERROR(status) ? "The driver refused the password." : "Password set.";
	mem_set(text, 0, sizeof(text));
}

/* A password kept in the varstore like a string. */
static void in_store(struct browser *b, const struct ifr_statement *s)
{
	CHAR16 old[PASSWORD_CHARS] = {0}, typed[PASSWORD_CHARS] = {0}, text[PASSWORD_CHARS];

	browser_string(b, s, old, PASSWORD_CHARS);
	if (old[0] && (!browser_read_line(b, "Old password: ", typed, s->max_len, BROWSER_MASKED) ||
		       str16_cmp(old, typed))) {
		b->message = "Incorrect password.";
		return;
	}
	if (!new_password(b, s, text))
		return;
	browser_set_string(b, s, text);
	b->dirty = true;
	b->message = "Password set.";
}

/* Sets a password question's password. */
void browser_password(struct browser *b, const struct ifr_statement *s)
{
	if (b->access && (s->question_flags & EFI_IFR_FLAG_CALLBACK))
		through_driver(b, s);
	else
		in_store(b, s);
}
