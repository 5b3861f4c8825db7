/* The reading of IFR forms packages (core/hii/ifr_parse.c), over the packages of the
 * forms-test driver (apps/forms-test/pure/form_package.c) and broken copies of them. */
#include <stdlib.h>
#include <string.h>
#include "support/test.h"
#include "../../apps/forms-test/pure/form_package.h"
#include <ember/core/hii_ifr.h>
#include <ember/core/hii_packages.h>

#define CAP 64

static struct ifr_form forms[CAP];
static struct ifr_statement stmts[CAP];
static struct ifr_option options[CAP];
static struct ifr_varstore stores[CAP];
static struct ifr_cond conds[CAP];
static struct ifr_formset fs = {.cap = CAP,
				.forms = forms,
				.stmts = stmts,
				.options = options,
				.stores = stores,
				.conds = conds};

static UINT8 pkg[2048];

static size_t package(void)
{
	return ft_forms_package(pkg, sizeof(pkg), 0);
}

TEST(hii_ifr_forms_test_package)
{
	static const EFI_GUID guid = FT_GUID_INIT;
	size_t n = package();
	const struct ifr_form *main_form;
	const struct ifr_statement *s;

	ASSERT(n > 0);
	EXPECT(hii_package_check(pkg, n) == NULL);
	ASSERT(ifr_opcode_count(pkg, n) <= CAP);
	ASSERT(ifr_parse(pkg, n, &guid, &fs) == NULL);
	EXPECT_EQ(fs.form_count, 2);
	EXPECT_EQ(fs.store_count, 1);
	EXPECT(stores[0].size == FT_DATA_SIZE && stores[0].name[0] == 'F' && !stores[0].efi);
	main_form = ifr_form_find(&fs, FT_FORM_MAIN);
	ASSERT(main_form && main_form->count == 13);
	s = &stmts[main_form->first];
	EXPECT(s[0].kind == IFR_SUBTITLE && s[1].kind == IFR_TEXT && s[1].text_two == 6);
	EXPECT(s[2].kind == IFR_CHECKBOX && s[2].var_offset == FT_OFF_ENABLE && s[2].width == 1);
	EXPECT(s[3].kind == IFR_NUMERIC && s[3].width == 2 && s[3].min == 1 && s[3].max == 100);
	EXPECT(s[3].has_default && s[3].default_value == 10);
	EXPECT(s[4].kind == IFR_ONE_OF && s[4].option_count == 3);
	EXPECT(options[s[4].first_option + 2].value == 2 && s[4].has_default);
	EXPECT(s[5].kind == IFR_STRING && s[5].max_len == FT_NAME_CHARS && s[5].width == 16);
	EXPECT(s[6].kind == IFR_GOTO && s[6].form_id == FT_FORM_MORE);
	EXPECT(s[7].kind == IFR_ACTION && (s[7].question_flags & EFI_IFR_FLAG_CALLBACK));
	EXPECT(ifr_form_find(&fs, FT_FORM_MORE)->count == 5);
	s = &stmts[ifr_form_find(&fs, FT_FORM_MORE)->first];
	EXPECT(s[2].kind == IFR_PASSWORD && s[2].min_len == 2 && s[2].max_len == 8);
	EXPECT(s[3].kind == IFR_TIME && !s[3].varstore_id && s[3].refresh == 1);
	EXPECT(s[4].kind == IFR_NUMERIC && s[4].refresh == 1 && !s[1].refresh);
	/* The first form set when no GUID is asked; none of another GUID. */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) == NULL);
	EXPECT(ifr_parse(pkg, n, &(EFI_GUID){1}, &fs) != NULL);
}

/* Question values for the conditions: enable, mode and level as the test sets them. */
static UINT64 enable_value, mode_value, level_value;

static bool values(void *ctx, EFI_QUESTION_ID id, UINT64 *value)
{
	(void)ctx;
	*value = id == FT_QID_ENABLE ? enable_value : id == FT_QID_MODE ? mode_value : level_value;
	return id == FT_QID_ENABLE || id == FT_QID_MODE || id == FT_QID_LEVEL;
}

/* The ordered list, date, time, and the conditions around and inside questions. */
TEST(hii_ifr_new_questions_and_conditions)
{
	struct ifr_expr_env env = {values, NULL};
	const struct ifr_statement *s;
	size_t n = package();

	ASSERT(ifr_parse(pkg, n, NULL, &fs) == NULL);
	s = &stmts[ifr_form_find(&fs, FT_FORM_MAIN)->first];
	EXPECT(s[8].kind == IFR_ORDERED_LIST && s[8].width == 1 && s[8].containers == 3);
	EXPECT(s[8].option_count == 3 && options[s[8].first_option + 2].value == 3);
	EXPECT(s[9].kind == IFR_DATE && s[9].width == 4 && s[9].var_offset == FT_OFF_DATE);
	EXPECT(s[10].kind == IFR_TIME && s[10].width == 3 && s[10].var_offset == FT_OFF_TIME);
	EXPECT(s[11].question_id == FT_QID_LEVEL && s[11].cond);
	EXPECT(s[12].question_id == FT_QID_TURBO && s[12].cond);
	EXPECT(!s[2].cond && !s[10].cond);
	EXPECT_EQ(fs.cond_count, 4); /* nosubmitif, suppressif, inconsistentif, grayoutif */
	/* Level is suppressed while Enable is 0, Turbo grayed out while Mode is 0. */
	enable_value = 0, mode_value = 0, level_value = 7;
	EXPECT(ifr_cond_around(&fs, s[11].cond, IFR_COND_SUPPRESS, &env));
	EXPECT(!ifr_cond_around(&fs, s[11].cond, IFR_COND_GRAY_OUT, &env));
	EXPECT(ifr_cond_around(&fs, s[12].cond, IFR_COND_GRAY_OUT, &env));
	enable_value = 1, mode_value = 2;
	EXPECT(!ifr_cond_around(&fs, s[11].cond, IFR_COND_SUPPRESS, &env));
	EXPECT(!ifr_cond_around(&fs, s[12].cond, IFR_COND_GRAY_OUT, &env));
	/* The inconsistentif and nosubmitif belong to Level and Count, with their errors. */
	for (UINT16 i = 0; i < fs.cond_count; i++) {
		if (conds[i].kind == IFR_COND_INCONSISTENT) {
			EXPECT(stmts[conds[i].stmt].question_id == FT_QID_LEVEL);
			EXPECT(conds[i].error == 27 && ifr_cond_holds(&fs, &conds[i], &env));
		}
		if (conds[i].kind == IFR_COND_NO_SUBMIT)
			EXPECT(stmts[conds[i].stmt].question_id == FT_QID_COUNT && conds[i].known);
	}
}

/* Finds the first opcode of a code in the package. */
static size_t find_op(size_t n, UINT8 code)
{
	for (size_t at = 4; at < n; at += pkg[at + 1] & 0x7f) {
		if (pkg[at] == code)
			return at;
	}
	return 0;
}

TEST(hii_ifr_refused)
{
	size_t n = package(), at;

	/* Every cut of the package is refused (scopes left open or an opcode cut). */
	for (size_t cut = 4; cut < n; cut++) {
		UINT32 header = (UINT32)cut | (UINT32)EFI_HII_PACKAGE_FORMS << 24;

		memcpy(pkg, &header, 4);
		EXPECT(ifr_parse(pkg, cut, NULL, &fs) != NULL);
	}
	n = package();
	at = find_op(n, EFI_IFR_REF_OP);
	pkg[at + 13] = 9; /* a goto to form 9 */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_NUMERIC_OP);
	pkg[at + 10] = FT_DATA_SIZE - 1; /* 2 bytes at 23 of a 24-byte store */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_CHECKBOX_OP);
	pkg[at + 8] = 7; /* varstore 7 */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_FORM_OP);
	pkg[at] = EFI_IFR_TEXT_OP; /* statements outside any form */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	pkg[n - 2] = EFI_IFR_TEXT_OP; /* the form set's END */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_VARSTORE_OP);
	pkg[at + 28] = 'x'; /* name not terminated */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_CHECKBOX_OP);
	pkg[at + 6] = 0, pkg[at + 7] = 0; /* QuestionId 0 */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_EQ_ID_VAL_OP);
	pkg[at] = EFI_IFR_AND_OP; /* an expression that takes values it does not have */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_SUPPRESS_IF_OP);
	pkg[at + 2] = EFI_IFR_TEXT_OP; /* a suppressif without an expression */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_ORDERED_LIST_OP);
	pkg[at + 13] = 20; /* 20 entries from offset 24 of a 40-byte store */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
	n = package();
	at = find_op(n, EFI_IFR_DATE_OP);
	pkg[at + 10] = FT_DATA_SIZE - 2; /* a date past the store's end */
	EXPECT(ifr_parse(pkg, n, NULL, &fs) != NULL);
}

/* A package of more opcodes than the arrays hold is refused, not overrun. */
TEST(hii_ifr_capacity)
{
	struct ifr_formset small = fs;
	size_t n = package();

	small.cap = 2;
	EXPECT(ifr_parse(pkg, n, NULL, &small) != NULL);
}

/* A NUMERIC cut after its question header, last in the package: refused without reading
 * its flags past the end (fuzz_hii_ifr found the read; the ASan build catches it). */
TEST(hii_ifr_short_numeric)
{
	static const UINT8 head[] = {0, 0, 0, 2, EFI_IFR_FORM_SET_OP, 23 | 0x80};
	static const UINT8 form_op[] = {EFI_IFR_FORM_OP, 6 | 0x80, 1, 0, 0, 0};
	static const UINT8 numeric[13] = {EFI_IFR_NUMERIC_OP, 13, 0, 0, 0, 0, 1, 0};
	size_t n = sizeof(head) + 21 + sizeof(form_op) + sizeof(numeric);
	UINT8 *p = calloc(1, n);

	ASSERT(p);
	memcpy(p, head, sizeof(head));
	memcpy(p + sizeof(head) + 21, form_op, sizeof(form_op));
	memcpy(p + n - sizeof(numeric), numeric, sizeof(numeric));
	EXPECT(ifr_parse(p, n, NULL, &fs) != NULL);
	free(p);
}
