// SPDX-License-Identifier: GPL-2.0-or-later
/* list -Q/--filter: a recursive-descent parser and evaluator of libsmartcols' filter grammar. */
#include "list-filter.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ere.h"
#include "number.h"
#include "util.h"

/*
 * The grammar, as libsmartcols 2.40+ (a bison parser) reads it:
 *   expression := compare { ("&&" | "and" | "||" | "or") compare }
 *   compare    := prefix { operator prefix }
 *   prefix     := ("!" | "not") prefix | "(" expression ")" | value
 *   value      := COLUMN | "string" | 'string' | NUMBER | NUMBER.DIGITS | true | false
 * && and || share one level and group from the left ("A || B && C" is
 * "(A || B) && C"), and ! takes the value right after it ("! A == 1" is
 * "(!A) == 1"): libsmartcols' precedence, whatever SQL would do.  Keywords are
 * all lower or all upper case.  A string has no escapes and no line end.
 * Nesting is bounded: the expression comes from a command line, and the parser
 * must not run out of stack.
 */
#define MAX_DEPTH 200
/* And the number of terms: "A && A && ..." is a left-deep tree, evaluated recursively. */
#define MAX_NODES 10000

enum node_kind {
	NODE_OR,
	NODE_AND,
	NODE_NOT,
	NODE_COMPARE,
	NODE_COLUMN,
	NODE_STRING,
	NODE_NUMBER,
	NODE_FLOAT,
	NODE_BOOLEAN,
};

enum operator{
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_MATCH,
	OP_NOT_MATCH,
};

/* The comparison operators, in their symbol and word forms. */
static const struct {
	const char *symbol;
	const char *word;
	enum operator op;
} operator_table[] = {
	{ "==", "eq", OP_EQ },    { "!=", "ne", OP_NE },        { "<=", "le", OP_LE },
	{ ">=", "ge", OP_GE },    { "<", "lt", OP_LT },         { ">", "gt", OP_GT },
	{ "=~", NULL, OP_MATCH }, { "!~", NULL, OP_NOT_MATCH },
};

#define N_OPERATORS (sizeof(operator_table) / sizeof(operator_table[0]))

/* The types a value has while an expression is evaluated: libsmartcols' SCOLS_DATA_*. */
enum value_type {
	VALUE_STRING,
	VALUE_NUMBER, /* unsigned 64-bit */
	VALUE_FLOAT,  /* long double */
	VALUE_BOOLEAN,
};

struct node {
	enum node_kind kind;
	struct node *left, *right; /* operands of OR, AND, COMPARE; NOT's is left */
	enum operator op;
	int column;           /* NODE_COLUMN */
	enum value_type type; /* of the column, or of the literal */
	char *text;           /* NODE_STRING, without quotes or outer blanks */
	uint64_t number;      /* NODE_NUMBER; NODE_BOOLEAN: 0 or 1 */
	long double fraction; /* NODE_FLOAT */
	struct ere *pattern;  /* NODE_COMPARE with =~ or !~ */
};

struct list_filter {
	struct node *root;
};

enum token_kind {
	TOKEN_END,
	TOKEN_OPEN,
	TOKEN_CLOSE,
	TOKEN_AND,
	TOKEN_OR,
	TOKEN_NOT,
	TOKEN_OPERATOR,
	TOKEN_WORD,
	TOKEN_STRING,
	TOKEN_NUMBER,
	TOKEN_TRUE,
	TOKEN_FALSE,
};

/* The word forms, each in its lower- and upper-case spelling only (libsmartcols' scanner). */
static const struct {
	const char *lower, *upper;
	enum token_kind kind;
} keyword_table[] = {
	{ "and", "AND", TOKEN_AND },       { "or", "OR", TOKEN_OR },
	{ "not", "NOT", TOKEN_NOT },       { "true", "TRUE", TOKEN_TRUE },
	{ "false", "FALSE", TOKEN_FALSE },
};

struct token {
	enum token_kind kind;
	size_t start, length; /* in the expression's text */
	enum operator op;
};

struct parser {
	const char *text;
	size_t at;
	struct token token; /* the current one, not yet consumed */
	list_filter_lookup_fn lookup;
	unsigned depth;
	size_t n_nodes;
	bool no_memory;
	struct list_filter_error *error;
};

/* Report the first error only: later ones follow from it. */
__attribute__((format(printf, 3, 4))) static void fail_at(struct parser *p, size_t start,
							  const char *format, ...)
{
	va_list ap;

	if (p->error->reason[0] || p->no_memory)
		return;
	p->error->position = start + 1;
	va_start(ap, format);
	vsnprintf(p->error->reason, sizeof(p->error->reason), format, ap);
	va_end(ap);
}

static bool failed(const struct parser *p)
{
	return p->error->reason[0] || p->no_memory;
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* WORD (LENGTH bytes) is NAME in either of its spellings. */
static bool word_is(const char *word, size_t length, const char *lower, const char *upper)
{
	return strlen(lower) == length &&
	       (strncmp(word, lower, length) == 0 || (upper && strncmp(word, upper, length) == 0));
}

/* What the token at START is, as a message shows it: at most 24 bytes, control bytes as '?'. */
static const char *token_text(const struct parser *p, const struct token *t, char *buf, size_t size)
{
	size_t n = t->length < 24 ? t->length : 24, i;

	if (t->kind == TOKEN_END)
		return "the end";
	if (size < n + 6)
		n = size - 6;
	buf[0] = '\'';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p->text[t->start + i];

		buf[i + 1] = (char)(c < 0x20 || c == 0x7f ? '?' : c);
	}
	strcpy(buf + n + 1, t->length > n ? "...'" : "'");
	return buf;
}

static void word_token(struct parser *p, struct token *t)
{
	const char *word = p->text + t->start;

	t->kind = TOKEN_WORD;
	for (size_t i = 0; i < ELEMENTSOF(keyword_table); i++)
		if (word_is(word, t->length, keyword_table[i].lower, keyword_table[i].upper))
			t->kind = keyword_table[i].kind;
	for (size_t i = 0; t->kind == TOKEN_WORD && i < N_OPERATORS; i++) {
		char upper[3] = { 0 };

		if (!operator_table[i].word)
			continue;
		upper[0] = (char)toupper((unsigned char)operator_table[i].word[0]);
		upper[1] = (char)toupper((unsigned char)operator_table[i].word[1]);
		if (word_is(word, t->length, operator_table[i].word, upper))
			t->kind = TOKEN_OPERATOR, t->op = operator_table[i].op;
	}
}

static void next_token(struct parser *p)
{
	const char *s = p->text;
	struct token *t = &p->token;
	size_t at = p->at;

	/* libsmartcols' blanks; a carriage return it would copy to standard output. */
	while (s[at] == ' ' || s[at] == '\t' || s[at] == '\n')
		at++;
	t->start = at;
	t->length = 1;
	if (!s[at]) {
		t->kind = TOKEN_END;
		t->length = 0;
	} else if (s[at] == '(') {
		t->kind = TOKEN_OPEN;
	} else if (s[at] == ')') {
		t->kind = TOKEN_CLOSE;
	} else if (s[at] == '&' && s[at + 1] == '&') {
		t->kind = TOKEN_AND, t->length = 2;
	} else if (s[at] == '|' && s[at + 1] == '|') {
		t->kind = TOKEN_OR, t->length = 2;
	} else if (s[at] == '"' || s[at] == '\'') {
		size_t end = at + 1;

		while (s[end] && s[end] != '\n' && s[end] != s[at])
			end++;
		if (s[end] != s[at]) {
			fail_at(p, at, "the string that starts here has no closing %c%s", s[at],
				s[end] == '\n' ? " on its line" : "");
			t->kind = TOKEN_END;
			return;
		}
		t->kind = TOKEN_STRING, t->length = end + 1 - at;
	} else if (isdigit((unsigned char)s[at])) {
		size_t end = at;

		while (isdigit((unsigned char)s[end]) || s[end] == '.' || is_word_char(s[end]))
			end++;
		t->kind = TOKEN_NUMBER, t->length = end - at;
	} else if (isalpha((unsigned char)s[at])) {
		size_t end = at;

		while (is_word_char(s[end]))
			end++;
		t->length = end - at;
		word_token(p, t);
	} else {
		/* The table has the longer symbols first: "<=" before "<". */
		t->kind = TOKEN_END;
		for (size_t i = 0; i < N_OPERATORS && t->kind == TOKEN_END; i++) {
			size_t n = strlen(operator_table[i].symbol);

			if (strncmp(s + at, operator_table[i].symbol, n) == 0)
				t->kind = TOKEN_OPERATOR, t->op = operator_table[i].op,
				t->length = n;
		}
		if (t->kind != TOKEN_OPERATOR && s[at] == '!') {
			t->kind = TOKEN_NOT;
		} else if (t->kind != TOKEN_OPERATOR) {
			if (s[at] == '=')
				fail_at(p, at, "'=' is not an operator: '==' compares");
			else if (isprint((unsigned char)s[at]))
				fail_at(p, at, "unexpected character '%c'", s[at]);
			else
				fail_at(p, at, "unexpected byte 0x%02x", (unsigned char)s[at]);
			return;
		}
	}
	p->at = t->start + t->length;
}

static struct node *new_node(struct parser *p, enum node_kind kind)
{
	struct node *n;

	if (++p->n_nodes > MAX_NODES) {
		fail_at(p, p->token.start, "the expression has more than %d terms", MAX_NODES);
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		p->no_memory = true;
	else
		n->kind = kind;
	return n;
}

static void free_node(struct node *n)
{
	if (!n)
		return;
	free_node(n->left);
	free_node(n->right);
	free(n->text);
	ere_free(n->pattern);
	free(n);
}

/* START..START+LENGTH without the blanks at either end, as libsmartcols keeps every string. */
static char *trimmed_copy(const char *start, size_t length)
{
	while (length && isspace((unsigned char)*start))
		start++, length--;
	while (length && isspace((unsigned char)start[length - 1]))
		length--;
	return strndup(start, length);
}

/* A number token: digits, or digits '.' digits; an integer fits 64 bits. */
static bool parse_number(struct parser *p, const struct token *t, struct node *n)
{
	const char *s = p->text + t->start, *dot = memchr(s, '.', t->length);
	char shown[40], digits[32];
	size_t i;

	for (i = 0; i < t->length; i++)
		if (!isdigit((unsigned char)s[i]) && !(s + i == dot && i > 0 && i + 1 < t->length))
			break;
	if (i < t->length || t->length >= sizeof(digits)) {
		fail_at(p, t->start,
			i < t->length ? "%s is not a number (digits, and maybe '.' and digits)"
				      : "%s is too long a number",
			token_text(p, t, shown, sizeof(shown)));
		return false;
	}
	memcpy(digits, s, t->length);
	digits[t->length] = '\0';
	if (dot) {
		n->kind = NODE_FLOAT;
		n->type = VALUE_FLOAT;
		n->fraction = strtold(digits, NULL);
		return true;
	}
	if (number_parse(digits, UINT64_MAX, NUMBER_LEADING_ZEROS, &n->number) == -ERANGE) {
		/* libsmartcols would take the largest number instead, silently. */
		fail_at(p, t->start, "%s is larger than 18446744073709551615",
			token_text(p, t, shown, sizeof(shown)));
		return false;
	}
	n->type = VALUE_NUMBER;
	return true;
}

static enum value_type column_value_type(enum list_filter_type type)
{
	switch (type) {
	case LIST_FILTER_NUMBER:
		return VALUE_NUMBER;
	case LIST_FILTER_BOOLEAN:
		return VALUE_BOOLEAN;
	default:
		return VALUE_STRING;
	}
}

/* value := COLUMN | STRING | NUMBER | true | false; WHAT says what came before, for the message. */
static struct node *parse_value(struct parser *p, const char *what)
{
	struct token t = p->token;
	char shown[40];
	struct node *n;

	if (failed(p))
		return NULL;
	switch (t.kind) {
	case TOKEN_WORD: {
		enum list_filter_type type = LIST_FILTER_STRING;
		int column = p->lookup(p->text + t.start, t.length, &type);

		if (column < 0) {
			fail_at(p, t.start, "unknown column %s (nsctl list -H lists them)",
				token_text(p, &t, shown, sizeof(shown)));
			return NULL;
		}
		n = new_node(p, NODE_COLUMN);
		if (!n)
			return NULL;
		n->column = column;
		n->type = column_value_type(type);
		break;
	}
	case TOKEN_STRING:
		n = new_node(p, NODE_STRING);
		if (!n)
			return NULL;
		n->type = VALUE_STRING;
		n->text = trimmed_copy(p->text + t.start + 1, t.length - 2);
		if (!n->text) {
			p->no_memory = true;
			free_node(n);
			return NULL;
		}
		break;
	case TOKEN_NUMBER:
		n = new_node(p, NODE_NUMBER);
		if (!n)
			return NULL;
		if (!parse_number(p, &t, n)) {
			free_node(n);
			return NULL;
		}
		break;
	case TOKEN_TRUE:
	case TOKEN_FALSE:
		n = new_node(p, NODE_BOOLEAN);
		if (!n)
			return NULL;
		n->type = VALUE_BOOLEAN;
		n->number = t.kind == TOKEN_TRUE;
		break;
	case TOKEN_END:
		fail_at(p, t.start, "expected a value %s", what);
		return NULL;
	default:
		fail_at(p, t.start, "expected a value %s, not %s", what,
			token_text(p, &t, shown, sizeof(shown)));
		return NULL;
	}
	next_token(p);
	return n;
}

static struct node *parse_expression(struct parser *p);

/* prefix := ! prefix | ( expression ) | value */
static struct node *parse_prefix(struct parser *p, const char *what)
{
	struct token t = p->token;
	char shown[40];
	struct node *n, *operand;

	if (failed(p))
		return NULL;
	if (p->depth >= MAX_DEPTH) {
		fail_at(p, t.start, "nested deeper than %d levels", MAX_DEPTH);
		return NULL;
	}
	if (t.kind == TOKEN_NOT) {
		next_token(p);
		p->depth++;
		operand = parse_prefix(p, "after '!'");
		p->depth--;
		if (!operand)
			return NULL;
		n = new_node(p, NODE_NOT);
		if (!n) {
			free_node(operand);
			return NULL;
		}
		n->left = operand;
		return n;
	}
	if (t.kind == TOKEN_OPEN) {
		next_token(p);
		p->depth++;
		n = parse_expression(p);
		p->depth--;
		if (!n)
			return NULL;
		if (p->token.kind != TOKEN_CLOSE) {
			fail_at(p, p->token.start, "expected ')' to close the '(' at %zu, not %s",
				t.start + 1, token_text(p, &p->token, shown, sizeof(shown)));
			free_node(n);
			return NULL;
		}
		next_token(p);
		return n;
	}
	return parse_value(p, what);
}

/*
 * The pattern of =~ or !~ at T, compiled here: a bad one is a usage error
 * before any scan.  nsctl's own matcher (ere.h): its memory is bounded by the
 * pattern and set aside now, its time is linear in the text, so that no text
 * another user chooses (a command line) can make a row fail, slow or hide.
 * Characters are the locale's (UTF-8 or bytes), which list sets first.
 */
static bool compile_pattern(struct parser *p, const struct token *t, struct node *compare)
{
	const struct node *left = compare->left, *right = compare->right;
	const char *message = NULL;
	size_t offset = 0;
	char shown[40];
	int r;

	token_text(p, t, shown, sizeof(shown));
	/* libsmartcols matches text only: a number or a condition before it fails every row. */
	if (left->kind != NODE_COLUMN && left->kind != NODE_STRING) {
		fail_at(p, t->start, "%s needs a column or a string before it", shown);
		return false;
	}
	if (right->kind != NODE_STRING) {
		fail_at(p, t->start, "%s needs a regular expression in quotes after it", shown);
		return false;
	}
	/* As libsmartcols reads it: ^ and $ match at the ends of the whole cell only. */
	r = ere_compile(right->text, MB_CUR_MAX > 1, &compare->pattern, &message, &offset);
	if (r == -ENOMEM) {
		p->no_memory = true;
		return false;
	}
	if (r < 0) {
		fail_at(p, t->start, "bad regular expression after %s: %s, at character %zu of it",
			shown, message, offset + 1);
		return false;
	}
	return true;
}

/* compare := prefix { operator prefix }, from the left */
static struct node *parse_compare(struct parser *p)
{
	struct node *left = parse_prefix(p, "here");
	unsigned chained = 0;

	while (left && p->token.kind == TOKEN_OPERATOR) {
		struct token t = p->token;
		char shown[40], what[64];
		struct node *right = NULL, *n = NULL;

		/* "A == B == C ..." nests as deep as it is long, for the evaluation's recursion. */
		p->depth++, chained++;
		snprintf(what, sizeof(what), "after %s", token_text(p, &t, shown, sizeof(shown)));
		next_token(p);
		if (p->depth >= MAX_DEPTH)
			fail_at(p, t.start, "nested deeper than %d levels", MAX_DEPTH);
		else
			right = parse_prefix(p, what);
		n = right ? new_node(p, NODE_COMPARE) : NULL;
		if (!n) {
			p->depth -= chained;
			free_node(left);
			free_node(right);
			return NULL;
		}
		n->op = t.op;
		n->left = left;
		n->right = right;
		left = n;
		if ((t.op == OP_MATCH || t.op == OP_NOT_MATCH) && !compile_pattern(p, &t, n)) {
			p->depth -= chained;
			free_node(n);
			return NULL;
		}
	}
	p->depth -= chained;
	return left;
}

/* expression := compare { (&& | ||) compare }, one level, from the left */
static struct node *parse_expression(struct parser *p)
{
	struct node *left = parse_compare(p);

	while (left && (p->token.kind == TOKEN_AND || p->token.kind == TOKEN_OR)) {
		enum node_kind kind = p->token.kind == TOKEN_AND ? NODE_AND : NODE_OR;
		struct node *right, *n;

		next_token(p);
		right = parse_compare(p);
		n = right ? new_node(p, kind) : NULL;
		if (!n) {
			free_node(left);
			free_node(right);
			return NULL;
		}
		n->left = left;
		n->right = right;
		left = n;
	}
	return left;
}

int list_filter_parse(const char *text, list_filter_lookup_fn lookup,
		      struct list_filter **ret_filter, struct list_filter_error *ret_error)
{
	struct list_filter_error error = { 0 };
	struct parser p = { .text = text, .lookup = lookup, .error = &error };
	struct list_filter *filter;
	struct node *root;
	char shown[40];

	next_token(&p);
	if (p.token.kind == TOKEN_END && !failed(&p))
		fail_at(&p, p.token.start, "the expression is empty");
	root = parse_expression(&p);
	if (root && p.token.kind != TOKEN_END)
		fail_at(&p, p.token.start, "expected an operator, '&&', '||' or the end, not %s",
			token_text(&p, &p.token, shown, sizeof(shown)));
	if (failed(&p)) {
		free_node(root);
		if (p.no_memory)
			return -ENOMEM;
		*ret_error = error;
		return -EINVAL;
	}
	filter = malloc(sizeof(*filter));
	if (!filter) {
		free_node(root);
		return -ENOMEM;
	}
	filter->root = root;
	*ret_filter = filter;
	return 0;
}

/*
 * A value while an expression is evaluated, as libsmartcols holds one.  EMPTY:
 * a cell with no text (its string is then NULL); a number, a fraction or a
 * boolean made from a value of another type is never empty, as in libsmartcols.
 */
struct value {
	enum value_type type;
	bool empty;
	const char *string;
	uint64_t number;
	long double fraction;
	bool boolean;
	char *owned; /* what string points into, when it was made here */
};

static void value_done(struct value *v)
{
	free(v->owned);
	v->owned = NULL;
}

/* A cell's text as a number: decimal digits only (common/number.c's rules, leading zeros too). */
static int text_to_number(const char *text, uint64_t *ret)
{
	return number_parse(text, UINT64_MAX, NUMBER_LEADING_ZEROS, ret);
}

static int text_to_fraction(const char *text, long double *ret)
{
	char *end;
	long double f;

	if (!*text)
		return -EINVAL;
	errno = 0;
	f = strtold(text, &end);
	if (errno)
		return -errno;
	if (end == text || *end)
		return -EINVAL;
	*ret = f;
	return 0;
}

static int set_owned_string(struct value *v, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static int set_owned_string(struct value *v, const char *format, ...)
{
	va_list ap;
	char *text;
	int r;

	va_start(ap, format);
	r = vasprintf(&text, format, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	value_done(v);
	v->owned = text;
	v->string = text;
	return 0;
}

/* V as TYPE, with libsmartcols' conversions; -EINVAL or -ERANGE for text that is no number. */
static int convert(struct value *v, enum value_type type)
{
	int r = 0;

	if (v->type == type)
		return 0;
	if (v->type != VALUE_STRING)
		v->empty = false;
	switch (v->type) {
	case VALUE_STRING:
		if (type == VALUE_NUMBER)
			r = v->string ? text_to_number(v->string, &v->number) : 0;
		else if (type == VALUE_FLOAT)
			r = v->string ? text_to_fraction(v->string, &v->fraction) : 0;
		else
			/* "1", "true" in any case, or a yes (rpmatch(3): y or Y in the C locale).
			 */
			v->boolean = v->string && (strcmp(v->string, "1") == 0 ||
						   strcasecmp(v->string, "true") == 0 ||
						   *v->string == 'y' || *v->string == 'Y');
		break;
	case VALUE_NUMBER:
		if (type == VALUE_STRING)
			r = set_owned_string(v, "%" PRIu64, v->number);
		v->fraction = (long double)v->number;
		v->boolean = v->number > 0;
		break;
	case VALUE_FLOAT:
		if (type == VALUE_STRING)
			r = set_owned_string(v, "%Lg", v->fraction);
		else if (type == VALUE_NUMBER)
			r = v->fraction >= 0 && v->fraction < 18446744073709551616.0L
				? (v->number = (uint64_t)v->fraction, 0)
				: -ERANGE;
		v->boolean = v->fraction > 0;
		break;
	case VALUE_BOOLEAN:
		if (type == VALUE_STRING)
			v->string = v->boolean ? "true" : "false";
		v->number = v->boolean;
		v->fraction = v->boolean;
		break;
	}
	if (r == 0)
		v->type = type;
	return r;
}

static int evaluate(const struct node *n, list_filter_value_fn cell, void *row);

/* N's value in its own type: a column's cell read as the column's type, a condition as a boolean.
 */
static int value_of(const struct node *n, list_filter_value_fn cell, void *row, struct value *ret)
{
	const char *text;
	int r;

	*ret = (struct value){ .type = n->type };
	switch (n->kind) {
	case NODE_COLUMN:
		text = cell(row, n->column);
		ret->type = VALUE_STRING;
		ret->empty = !text;
		if (text) {
			ret->owned = trimmed_copy(text, strlen(text));
			if (!ret->owned)
				return -ENOMEM;
			ret->string = ret->owned;
		}
		r = convert(ret, n->type);
		if (r < 0)
			value_done(ret);
		return r;
	case NODE_STRING:
	case NODE_NUMBER:
	case NODE_FLOAT:
	case NODE_BOOLEAN:
		/* A literal: its type says which of these is its value. */
		ret->string = n->text;
		ret->number = n->number;
		ret->fraction = n->fraction;
		ret->boolean = n->number != 0;
		return 0;
	default:
		r = evaluate(n, cell, row);
		ret->type = VALUE_BOOLEAN;
		ret->boolean = r > 0;
		return r < 0 ? r : 0;
	}
}

static enum value_type node_type(const struct node *n)
{
	return n->kind <= NODE_COMPARE ? VALUE_BOOLEAN : n->type;
}

/*
 * The type both sides are compared as: theirs when they agree; else the
 * literal's or condition's rather than a column's ("PID > 1.5" compares
 * fractions), the left one's between two of a kind, and a fraction rather
 * than a number.  libsmartcols decides so.
 */
static enum value_type compared_type(const struct node *n)
{
	enum value_type left = node_type(n->left), right = node_type(n->right), type = left;

	if (left == right)
		return left;
	if (n->left->kind == NODE_COLUMN && n->right->kind != NODE_COLUMN)
		type = right;
	if (type == VALUE_NUMBER && (left == VALUE_FLOAT || right == VALUE_FLOAT))
		type = VALUE_FLOAT;
	return type;
}

static int order_of(const struct value *a, const struct value *b)
{
	switch (a->type) {
	case VALUE_STRING:
		/* An empty cell (no text) is before every string, "" too. */
		if (!a->string || !b->string)
			return (a->string != NULL) - (b->string != NULL);
		return strcmp(a->string, b->string);
	case VALUE_NUMBER:
		return (a->number > b->number) - (a->number < b->number);
	case VALUE_FLOAT:
		return (a->fraction > b->fraction) - (a->fraction < b->fraction);
	default:
		return (int)a->boolean - (int)b->boolean;
	}
}

static int compare(const struct node *n, list_filter_value_fn cell, void *row)
{
	enum value_type type = compared_type(n);
	struct value a, b;
	int r, order;

	r = value_of(n->left, cell, row, &a);
	if (r < 0)
		return r;
	r = convert(&a, type);
	if (r == 0)
		r = value_of(n->right, cell, row, &b);
	if (r < 0) {
		value_done(&a);
		return r;
	}
	r = convert(&b, type);
	if (r < 0)
		goto done;
	if (n->pattern) {
		/* The pattern was compiled as text: anything else compared by it fails. */
		if (type != VALUE_STRING) {
			r = -EINVAL;
			goto done;
		}
		r = ere_match(n->pattern, a.string ? a.string : "");
		r = n->op == OP_MATCH ? r : !r;
		goto done;
	}
	/* Only strings order an empty cell; any other comparison with one is false, != too. */
	if (type != VALUE_STRING && (a.empty || b.empty)) {
		r = 0;
		goto done;
	}
	order = order_of(&a, &b);
	switch (n->op) {
	case OP_EQ:
		r = order == 0;
		break;
	case OP_NE:
		r = order != 0;
		break;
	case OP_LT:
		r = order < 0;
		break;
	case OP_LE:
		r = order <= 0;
		break;
	case OP_GT:
		r = order > 0;
		break;
	default:
		r = order >= 0;
		break;
	}
done:
	value_done(&a);
	value_done(&b);
	return r;
}

/* A value alone: true when it is not empty and not "", 0 or false. */
static int truth(const struct node *n, list_filter_value_fn cell, void *row)
{
	struct value v;
	int r = value_of(n, cell, row, &v);

	if (r < 0)
		return r;
	if (v.empty)
		r = 0;
	else if (v.type == VALUE_STRING)
		r = v.string && *v.string;
	else if (v.type == VALUE_NUMBER)
		r = v.number != 0;
	else if (v.type == VALUE_FLOAT)
		r = v.fraction != 0;
	else
		r = v.boolean;
	value_done(&v);
	return r;
}

/* 1 or 0, or a negative errno that ends the evaluation (libsmartcols' rule: the row fails). */
static int evaluate(const struct node *n, list_filter_value_fn cell, void *row)
{
	int r;

	switch (n->kind) {
	case NODE_OR:
	case NODE_AND:
		r = evaluate(n->left, cell, row);
		if (r < 0 || r == (n->kind == NODE_OR))
			return r;
		return evaluate(n->right, cell, row);
	case NODE_NOT:
		r = evaluate(n->left, cell, row);
		return r < 0 ? r : !r;
	case NODE_COMPARE:
		return compare(n, cell, row);
	default:
		return truth(n, cell, row);
	}
}

int list_filter_match(const struct list_filter *filter, list_filter_value_fn value, void *row)
{
	return evaluate(filter->root, value, row);
}

static bool node_uses(const struct node *n, int column)
{
	return n && ((n->kind == NODE_COLUMN && n->column == column) ||
		     node_uses(n->left, column) || node_uses(n->right, column));
}

bool list_filter_uses(const struct list_filter *filter, int column)
{
	return node_uses(filter->root, column);
}

const char *list_filter_type_name(enum list_filter_type type)
{
	static const char *const names[] = {
		[LIST_FILTER_STRING] = "string",
		[LIST_FILTER_NUMBER] = "number",
		[LIST_FILTER_BOOLEAN] = "boolean",
	};

	return (size_t)type < ELEMENTSOF(names) ? names[type] : "string";
}

void list_filter_free(struct list_filter *filter)
{
	if (!filter)
		return;
	free_node(filter->root);
	free(filter);
}
