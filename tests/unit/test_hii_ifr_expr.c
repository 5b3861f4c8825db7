/* IFR expressions (core/hii/ifr_expr.c): the opcodes the evaluator knows, over questions
 * of values given by the test, and expressions it must refuse or call undefined. */
#include <string.h>
#include "support/test.h"
#include <ember/core/hii_ifr.h>

/* Question 1 is 5, question 2 is 5, question 3 is 7; question 9 has no value. */
static bool values(void *ctx, EFI_QUESTION_ID id, UINT64 *value)
{
	(void)ctx;
	*value = id == 3 ? 7 : 5;
	return id >= 1 && id <= 3;
}

static const struct ifr_expr_env env = {values, NULL};

/* Checks and evaluates n bytes of opcodes. */
static int eval(const UINT8 *e, size_t n)
{
	bool known = false;

	if (ifr_expr_check(e, n, &known) || !known)
		return -2;
	return ifr_expr_eval(e, n, &env);
}

#define EVAL(...) eval((const UINT8[]){__VA_ARGS__}, sizeof((const UINT8[]){__VA_ARGS__}))

TEST(hii_ifr_expr_constants)
{
	EXPECT_EQ(EVAL(EFI_IFR_TRUE_OP, 2), 1);
	EXPECT_EQ(EVAL(EFI_IFR_FALSE_OP, 2), 0);
	EXPECT_EQ(EVAL(EFI_IFR_ONE_OP, 2), 1);
	EXPECT_EQ(EVAL(EFI_IFR_ZERO_OP, 2), 0);
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 4), 1);
	EXPECT_EQ(EVAL(EFI_IFR_UINT16_OP, 4, 0, 0), 0);
	EXPECT_EQ(EVAL(EFI_IFR_UINT32_OP, 6, 0, 0, 0, 1), 1);
	EXPECT_EQ(EVAL(EFI_IFR_UINT64_OP, 10, 0, 0, 0, 0, 0, 0, 0, 0x80), 1);
	EXPECT_EQ(EVAL(EFI_IFR_UNDEFINED_OP, 2), -1);
}

TEST(hii_ifr_expr_questions)
{
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_OP, 6, 1, 0, 5, 0), 1);
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_OP, 6, 3, 0, 5, 0), 0);
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_OP, 6, 9, 0, 5, 0), -1); /* no value: undefined */
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_ID_OP, 6, 1, 0, 2, 0), 1);
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_ID_OP, 6, 1, 0, 3, 0), 0);
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_LIST_OP, 10, 3, 0, 2, 0, 1, 0, 7, 0), 1);
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_LIST_OP, 10, 1, 0, 2, 0, 1, 0, 7, 0), 0);
	/* questionref1 3 == 7 */
	EXPECT_EQ(
	    EVAL(EFI_IFR_QUESTION_REF1_OP, 4, 3, 0, EFI_IFR_UINT8_OP, 3, 7, EFI_IFR_EQUAL_OP, 2),
	    1);
}

TEST(hii_ifr_expr_operators)
{
	/* NOT TRUE; TRUE AND FALSE; FALSE OR TRUE */
	EXPECT_EQ(EVAL(EFI_IFR_TRUE_OP, 2, EFI_IFR_NOT_OP, 2), 0);
	EXPECT_EQ(EVAL(EFI_IFR_TRUE_OP, 2, EFI_IFR_FALSE_OP, 2, EFI_IFR_AND_OP, 2), 0);
	EXPECT_EQ(EVAL(EFI_IFR_FALSE_OP, 2, EFI_IFR_TRUE_OP, 2, EFI_IFR_OR_OP, 2), 1);
	/* 3 op 5: the first pushed is the left operand */
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 3, EFI_IFR_UINT8_OP, 3, 5, EFI_IFR_LESS_THAN_OP, 2), 1);
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 3, EFI_IFR_UINT8_OP, 3, 5, EFI_IFR_GREATER_THAN_OP, 2),
		  0);
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 5, EFI_IFR_UINT8_OP, 3, 5, EFI_IFR_GREATER_EQUAL_OP, 2),
		  1);
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 6, EFI_IFR_UINT8_OP, 3, 5, EFI_IFR_LESS_EQUAL_OP, 2),
		  0);
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 6, EFI_IFR_UINT8_OP, 3, 5, EFI_IFR_NOT_EQUAL_OP, 2), 1);
	/* 7 - 7 is zero: false; 1 / 0 is undefined */
	EXPECT_EQ(EVAL(EFI_IFR_UINT8_OP, 3, 7, EFI_IFR_UINT8_OP, 3, 7, EFI_IFR_SUBTRACT_OP, 2), 0);
	EXPECT_EQ(EVAL(EFI_IFR_ONE_OP, 2, EFI_IFR_ZERO_OP, 2, EFI_IFR_DIVIDE_OP, 2), -1);
	/* TRUE ? ZERO : ONE */
	EXPECT_EQ(EVAL(EFI_IFR_TRUE_OP, 2, EFI_IFR_ZERO_OP, 2, EFI_IFR_ONE_OP, 2,
		       EFI_IFR_CONDITIONAL_OP, 2),
		  0);
	/* an undefined operand makes the result undefined */
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_OP, 6, 9, 0, 0, 0, EFI_IFR_TRUE_OP, 2, EFI_IFR_OR_OP, 2),
		  -1);
}

TEST(hii_ifr_expr_refused)
{
	bool known;

	/* too few values, two values left, a cut opcode, a short constant */
	EXPECT_EQ(EVAL(EFI_IFR_AND_OP, 2), -2);
	EXPECT_EQ(EVAL(EFI_IFR_TRUE_OP, 2, EFI_IFR_TRUE_OP, 2), -2);
	EXPECT_EQ(EVAL(EFI_IFR_TRUE_OP, 2, EFI_IFR_NOT_OP), -2);
	EXPECT_EQ(EVAL(EFI_IFR_UINT16_OP, 3, 1), -2);
	EXPECT_EQ(EVAL(EFI_IFR_EQ_ID_VAL_LIST_OP, 8, 1, 0, 2, 0, 5, 0), -2); /* list longer */
	/* deeper than the stack */
	{
		UINT8 deep[2 * (IFR_EXPR_STACK_MAX + 1)];

		for (size_t i = 0; i < sizeof(deep); i += 2)
			deep[i] = EFI_IFR_TRUE_OP, deep[i + 1] = 2;
		EXPECT(ifr_expr_check(deep, sizeof(deep), &known) != NULL);
		EXPECT_EQ(ifr_expr_eval(deep, sizeof(deep), &env), -1);
	}
	/* an expression opcode the evaluator does not know: accepted, never true */
	EXPECT(ifr_expr_check((const UINT8[]){EFI_IFR_TO_STRING_OP, 3, 0}, 3, &known) == NULL);
	EXPECT(!known);
	EXPECT_EQ(ifr_expr_eval((const UINT8[]){EFI_IFR_TO_STRING_OP, 3, 0}, 3, &env), -1);
	/* the evaluator alone, on unchecked bytes: bounded by the length */
	EXPECT_EQ(ifr_expr_eval((const UINT8[]){EFI_IFR_UINT64_OP, 10, 1}, 3, &env), -1);
	EXPECT_EQ(ifr_expr_eval((const UINT8[]){EFI_IFR_NOT_OP, 2}, 2, &env), -1);
}
