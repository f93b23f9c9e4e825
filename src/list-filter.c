// SPDX-License-Identifier: GPL-2.0-or-later
/* list -Q/--filter: a recursive-descent parser and evaluator of libsmartcols' filter grammar. */
#include "list-filter.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The grammar, loosest first:
 *   expression := and { ("||" | "or") and }
 *   and        := unary { ("&&" | "and") unary }
 *   unary      := ("!" | "not") unary | "(" expression ")" | value [ operator value ]
 *   value      := COLUMN | "string" | 'string' | NUMBER
 * so "! A == 1" is "!(A == 1)", as "not" reads in SQL.  Nesting is bounded: the
 * expression comes from a command line, and the parser must not run out of stack.
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

struct node {
	enum node_kind kind;
	struct node *left, *right; /* operands of OR, AND, COMPARE; NOT's is left */
	enum operator op;
	int column;                 /* NODE_COLUMN */
	enum list_filter_type type; /* NODE_COLUMN */
	char *text;                 /* NODE_STRING, NODE_NUMBER: as written, unescaped */
	bool has_number;            /* text is a number (always for NODE_NUMBER) */
	long double number;
	bool has_regex; /* NODE_COMPARE with =~ or !~ */
	regex_t regex;
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

static bool is_word_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* Whether TEXT is a number as the grammar writes one: digits, and maybe '.' and digits. */
static bool parse_number(const char *text, long double *ret_number)
{
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return false;
	/* long double holds every 64-bit integer exactly (x86's 64-bit mantissa, or binary128). */
	*ret_number = strtold(text, NULL);
	return true;
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

static void next_token(struct parser *p)
{
	const char *s = p->text;
	struct token *t = &p->token;
	size_t at = p->at;

	while (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')
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

		while (s[end] && s[end] != s[at])
			end += s[end] == '\\' && s[end + 1] ? 2 : 1;
		if (!s[end]) {
			fail_at(p, at, "the string that starts here has no closing %c", s[at]);
			t->kind = TOKEN_END;
			return;
		}
		t->kind = TOKEN_STRING, t->length = end + 1 - at;
	} else if (isdigit((unsigned char)s[at])) {
		size_t end = at;

		while (isdigit((unsigned char)s[end]) || s[end] == '.' || is_word_char(s[end]))
			end++;
		t->kind = TOKEN_NUMBER, t->length = end - at;
	} else if (is_word_start(s[at])) {
		size_t end = at;

		while (is_word_char(s[end]))
			end++;
		t->kind = TOKEN_WORD, t->length = end - at;
		if (t->length == 3 && strncasecmp(s + at, "and", 3) == 0)
			t->kind = TOKEN_AND;
		else if (t->length == 2 && strncasecmp(s + at, "or", 2) == 0)
			t->kind = TOKEN_OR;
		else if (t->length == 3 && strncasecmp(s + at, "not", 3) == 0)
			t->kind = TOKEN_NOT;
		for (size_t i = 0; t->kind == TOKEN_WORD && i < N_OPERATORS; i++)
			if (operator_table[i].word && t->length == 2 &&
			    strncasecmp(s + at, operator_table[i].word, 2) == 0)
				t->kind = TOKEN_OPERATOR, t->op = operator_table[i].op;
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
	if (n->has_regex)
		regfree(&n->regex);
	free(n);
}

/* A string literal's contents: \" \' and \\ stand for the character; other escapes stay (regexes).
 */
static char *unescape(const char *start, size_t length)
{
	char *out = malloc(length + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < length; i++) {
		if (start[i] == '\\' && i + 1 < length &&
		    (start[i + 1] == '"' || start[i + 1] == '\'' || start[i + 1] == '\\'))
			i++;
		*o++ = start[i];
	}
	*o = '\0';
	return out;
}

/* value := COLUMN | STRING | NUMBER; WHAT says what came before, for the message. */
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
		n->type = type;
		break;
	}
	case TOKEN_STRING:
		n = new_node(p, NODE_STRING);
		if (!n)
			return NULL;
		n->text = unescape(p->text + t.start + 1, t.length - 2);
		if (!n->text) {
			p->no_memory = true;
			free_node(n);
			return NULL;
		}
		n->has_number = parse_number(n->text, &n->number);
		break;
	case TOKEN_NUMBER:
		n = new_node(p, NODE_NUMBER);
		if (!n)
			return NULL;
		n->text = strndup(p->text + t.start, t.length);
		if (!n->text) {
			p->no_memory = true;
			free_node(n);
			return NULL;
		}
		n->has_number = parse_number(n->text, &n->number);
		if (!n->has_number) {
			fail_at(p, t.start, "%s is not a number (digits, and maybe '.' and digits)",
				token_text(p, &t, shown, sizeof(shown)));
			free_node(n);
			return NULL;
		}
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

static struct node *parse_or(struct parser *p);

static struct node *parse_unary(struct parser *p)
{
	struct token t = p->token;
	char shown[40], what[64];
	struct node *n, *right, *compare;

	if (failed(p))
		return NULL;
	if (p->depth >= MAX_DEPTH) {
		fail_at(p, t.start, "nested deeper than %d levels", MAX_DEPTH);
		return NULL;
	}
	if (t.kind == TOKEN_NOT) {
		next_token(p);
		p->depth++;
		right = parse_unary(p);
		p->depth--;
		if (!right)
			return NULL;
		n = new_node(p, NODE_NOT);
		if (!n) {
			free_node(right);
			return NULL;
		}
		n->left = right;
		return n;
	}
	if (t.kind == TOKEN_OPEN) {
		next_token(p);
		p->depth++;
		n = parse_or(p);
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
	if (t.kind == TOKEN_END && !failed(p)) {
		fail_at(p, t.start, "expected a column, a string, a number, '(' or '!'");
		return NULL;
	}
	n = parse_value(p, "here");
	if (!n || p->token.kind != TOKEN_OPERATOR)
		return n;
	t = p->token;
	snprintf(what, sizeof(what), "after %s", token_text(p, &t, shown, sizeof(shown)));
	next_token(p);
	right = parse_value(p, what);
	compare = right ? new_node(p, NODE_COMPARE) : NULL;
	if (!compare) {
		free_node(n);
		free_node(right);
		return NULL;
	}
	compare->op = t.op;
	compare->left = n;
	compare->right = right;
	if (t.op == OP_MATCH || t.op == OP_NOT_MATCH) {
		char message[128];
		int r;

		/* The pattern is compiled once, here, so a bad one is a usage error before any
		 * scan. */
		if (right->kind != NODE_STRING) {
			fail_at(p, t.start, "%s needs a regular expression in quotes after it",
				token_text(p, &t, shown, sizeof(shown)));
			free_node(compare);
			return NULL;
		}
		r = regcomp(&compare->regex, right->text, REG_EXTENDED | REG_NOSUB | REG_NEWLINE);
		if (r != 0) {
			regerror(r, &compare->regex, message, sizeof(message));
			fail_at(p, t.start, "bad regular expression after %s: %s",
				token_text(p, &t, shown, sizeof(shown)), message);
			free_node(compare);
			return NULL;
		}
		compare->has_regex = true;
	}
	return compare;
}

/* and := unary { && unary }; expression := and { || and } */
static struct node *parse_binary(struct parser *p, enum token_kind kind)
{
	struct node *left = kind == TOKEN_OR ? parse_binary(p, TOKEN_AND) : parse_unary(p);

	while (left && p->token.kind == kind) {
		struct node *right, *n;

		next_token(p);
		right = kind == TOKEN_OR ? parse_binary(p, TOKEN_AND) : parse_unary(p);
		n = right ? new_node(p, kind == TOKEN_OR ? NODE_OR : NODE_AND) : NULL;
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

static struct node *parse_or(struct parser *p)
{
	return parse_binary(p, TOKEN_OR);
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
	root = parse_or(&p);
	if (root && p.token.kind != TOKEN_END)
		fail_at(&p, p.token.start, "expected '&&', '||' or the end, not %s",
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

/* A value as a comparison sees it. */
struct operand {
	const char *text;
	bool numeric;    /* a number literal or a number column: compare as numbers */
	bool has_number; /* the text is a number */
	long double number;
};

static struct operand operand_of(const struct node *n, list_filter_value_fn value, void *row)
{
	struct operand o = { 0 };

	if (n->kind == NODE_COLUMN) {
		o.text = value(row, n->column);
		if (!o.text)
			o.text = "";
		o.numeric = n->type == LIST_FILTER_NUMBER;
		o.has_number = parse_number(o.text, &o.number);
	} else {
		o.text = n->text;
		o.numeric = n->kind == NODE_NUMBER;
		o.has_number = n->has_number;
		o.number = n->number;
	}
	return o;
}

static bool compare(const struct node *n, list_filter_value_fn value, void *row)
{
	struct operand a = operand_of(n->left, value, row), b = operand_of(n->right, value, row);
	bool numeric = a.numeric || b.numeric;
	int order;

	switch (n->op) {
	case OP_MATCH:
		return regexec(&n->regex, a.text, 0, NULL, 0) == 0;
	case OP_NOT_MATCH:
		return regexec(&n->regex, a.text, 0, NULL, 0) != 0;
	default:
		break;
	}
	if (numeric && a.has_number && b.has_number) {
		order = (a.number > b.number) - (a.number < b.number);
	} else if (numeric && (a.has_number || b.has_number) && (!*a.text || !*b.text)) {
		/* An empty cell (a namespace with no process has no PID) is no number: only !=
		 * holds. */
		return n->op == OP_NE;
	} else {
		order = strcmp(a.text, b.text);
	}
	switch (n->op) {
	case OP_EQ:
		return order == 0;
	case OP_NE:
		return order != 0;
	case OP_LT:
		return order < 0;
	case OP_LE:
		return order <= 0;
	case OP_GT:
		return order > 0;
	case OP_GE:
		return order >= 0;
	default:
		return false;
	}
}

/* A value alone: a number is true when it is not 0, a string when it is not empty. */
static bool truth(const struct node *n, list_filter_value_fn value, void *row)
{
	struct operand o = operand_of(n, value, row);

	if (n->kind == NODE_COLUMN && n->type == LIST_FILTER_BOOLEAN)
		return *o.text && strcmp(o.text, "0") != 0 && strcasecmp(o.text, "false") != 0;
	if (o.numeric)
		return o.has_number && o.number != 0;
	return *o.text != '\0';
}

static bool evaluate(const struct node *n, list_filter_value_fn value, void *row)
{
	switch (n->kind) {
	case NODE_OR:
		return evaluate(n->left, value, row) || evaluate(n->right, value, row);
	case NODE_AND:
		return evaluate(n->left, value, row) && evaluate(n->right, value, row);
	case NODE_NOT:
		return !evaluate(n->left, value, row);
	case NODE_COMPARE:
		return compare(n, value, row);
	default:
		return truth(n, value, row);
	}
}

bool list_filter_match(const struct list_filter *filter, list_filter_value_fn value, void *row)
{
	return evaluate(filter->root, value, row);
}

const char *list_filter_type_name(enum list_filter_type type)
{
	static const char *const names[] = {
		[LIST_FILTER_STRING] = "string",
		[LIST_FILTER_NUMBER] = "number",
		[LIST_FILTER_BOOLEAN] = "boolean",
	};

	return (size_t)type < sizeof(names) / sizeof(names[0]) ? names[type] : "string";
}

void list_filter_free(struct list_filter *filter)
{
	if (!filter)
		return;
	free_node(filter->root);
	free(filter);
}
