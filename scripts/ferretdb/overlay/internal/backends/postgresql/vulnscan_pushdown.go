// vulnscan: pushdown of declared scalar fields to PostgreSQL.
//
// This file is added to FerretDB v1.24.0's source by the vulnscan build (scripts/stack/ferretdb.ts);
// it is not part of upstream FerretDB. See docs/decisions.md, "Database".
//
// Upstream v1 executes most queries by reading every document that matches the parts of the
// filter it understands, then filtering, sorting, skipping and limiting in Go. Here a query whose
// every filter term, sort key, skip and limit PostgreSQL can evaluate exactly as MongoDB would is
// executed entirely in SQL, from the expression indexes FerretDB builds for the service's indexes.
//
// Exactness comes from declarations, not from guessing: a field is pushed down only when the
// table has a validated CHECK constraint, commented `vulnscan:<class>:<field>`, that keeps the
// field to one type class (or null or missing). Within one class, PostgreSQL's jsonb order and
// equality are MongoDB's (numbers numerically, strings bytewise under the "C" collation, dates as
// milliseconds, false < true), and `COALESCE(_jsonb->'f', 'null')` makes a missing field equal to
// null, the lowest value, as MongoDB does. The constraints are created by the vulnscan kit
// (services/kit/src/ferretdb-pg.ts). Every returned document is checked against the declarations
// again; a violation turns pushdown off for the table and fails that one query.
//
// Anything else (undeclared or dotted fields, other operators, other value types) keeps
// upstream's path: the conditions this file can express narrow the read, and Go filters, sorts,
// skips and limits the rest.

package postgresql

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/postgresql/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// vsClass is the one type class a declared field may hold (besides null and missing).
type vsClass string

const (
	vsString   vsClass = "string"
	vsNumber   vsClass = "number" // int, long and double: compared numerically, as MongoDB does
	vsDate     vsClass = "date"
	vsBool     vsClass = "bool"
	vsObjectID vsClass = "objectId"
	vsStrings  vsClass = "string[]" // a string or an array of strings: equality (containment) only
)

// vsDeclTTL is how long a table's declarations are trusted before they are read again.
const vsDeclTTL = 2 * time.Second

type vsDecls struct {
	fields map[string]vsClass
	loaded time.Time
}

var vsState struct {
	sync.Mutex
	decls       map[string]*vsDecls // "schema"."table" -> declarations
	broken      map[string]bool     // tables where a returned document broke a declaration
	collationOK *bool
}

// vsOffComment in a query's comment turns pushdown off for that query: the differential test
// compares both paths on the same server.
const vsOffComment = "vulnscan:no-pushdown"

// vsTableKey is the quoted name of a table, as regclass reads it.
func vsTableKey(schema, table string) string {
	return pgx.Identifier{schema, table}.Sanitize()
}

// vsCollationOK tells whether the database orders strings bytewise, as MongoDB does.
func vsCollationOK(ctx context.Context, p *pgxpool.Pool) (bool, error) {
	vsState.Lock()
	known := vsState.collationOK
	vsState.Unlock()

	if known != nil {
		return *known, nil
	}

	var collate string
	if err := p.QueryRow(ctx, `SELECT datcollate FROM pg_catalog.pg_database WHERE datname = current_database()`).Scan(&collate); err != nil {
		return false, lazyerrors.Error(err)
	}

	ok := collate == "C" || collate == "POSIX"

	vsCostDocumentFields(ctx, p)

	vsState.Lock()
	vsState.collationOK = &ok
	vsState.Unlock()

	return ok, nil
}

// vsFieldCost is the planner's cost of reading one field of a stored document (`->`, `->>`), in
// units of cpu_operator_cost. PostgreSQL's default (1) prices it as an addition, but a FerretDB
// document over 2 KB is stored out of line, and every such call decompresses the whole document
// again: about 16 µs at 6 KB, against 0.01 ms for a whole heap page. At the default, a count of
// an organization's 13,000 findings read every document (seq scan, 217 ms) instead of the index
// whose first column is org_id (7.7 ms), because the table's heap is tiny (83 pages).
const vsFieldCost = 100

// vsCostDocumentFields gives `->` and `->>` their real cost in this database, once per process.
// It needs a superuser, as the stack's own PostgreSQL has; elsewhere the defaults stay and only
// the planner's choices differ, never a result.
func vsCostDocumentFields(ctx context.Context, p *pgxpool.Pool) {
	_, _ = p.Exec(ctx, fmt.Sprintf(`DO $$
		BEGIN
			IF (SELECT procost FROM pg_catalog.pg_proc WHERE oid = 'pg_catalog.jsonb_object_field(jsonb, text)'::regprocedure) <> %[1]d THEN
				ALTER FUNCTION pg_catalog.jsonb_object_field(jsonb, text) COST %[1]d;
				ALTER FUNCTION pg_catalog.jsonb_object_field_text(jsonb, text) COST %[1]d;
			END IF;
		END $$`, vsFieldCost))
}

// vsDeclarations returns the declared fields of a table (nil when pushdown is off for it).
func vsDeclarations(ctx context.Context, p *pgxpool.Pool, schema, table string) (map[string]vsClass, error) {
	ok, err := vsCollationOK(ctx, p)
	if err != nil || !ok {
		return nil, err
	}

	key := vsTableKey(schema, table)

	vsState.Lock()
	if vsState.broken[key] {
		vsState.Unlock()
		return nil, nil
	}

	if d := vsState.decls[key]; d != nil && time.Since(d.loaded) < vsDeclTTL {
		vsState.Unlock()
		return d.fields, nil
	}
	vsState.Unlock()

	rows, err := p.Query(ctx, `
		SELECT d.description
		FROM pg_catalog.pg_constraint c
		JOIN pg_catalog.pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_catalog.pg_constraint'::regclass
		WHERE c.conrelid = to_regclass($1) AND c.contype = 'c' AND c.convalidated
		AND d.description LIKE 'vulnscan:%'`, key)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	fields := map[string]vsClass{}

	for rows.Next() {
		var description string
		if err = rows.Scan(&description); err != nil {
			rows.Close()
			return nil, lazyerrors.Error(err)
		}

		parts := strings.SplitN(description, ":", 3)
		if len(parts) != 3 {
			continue
		}

		class := vsClass(parts[1])
		switch class {
		case vsString, vsNumber, vsDate, vsBool, vsObjectID, vsStrings:
		default:
			continue
		}

		if prev, dup := fields[parts[2]]; dup && prev != class {
			// two declarations disagree: trust neither
			fields[parts[2]] = ""
			continue
		}

		fields[parts[2]] = class
	}

	rows.Close()

	if err = rows.Err(); err != nil {
		return nil, lazyerrors.Error(err)
	}

	for f, c := range fields {
		if c == "" {
			delete(fields, f)
		}
	}

	vsState.Lock()
	if vsState.decls == nil {
		vsState.decls = map[string]*vsDecls{}
	}
	vsState.decls[key] = &vsDecls{fields: fields, loaded: time.Now()}
	vsState.Unlock()

	return fields, nil
}

// vsMarkBroken turns pushdown off for a table whose data broke its declarations.
func vsMarkBroken(key string) {
	vsState.Lock()
	defer vsState.Unlock()

	if vsState.broken == nil {
		vsState.broken = map[string]bool{}
	}

	vsState.broken[key] = true
}

// vsQuoteLiteral quotes s as an SQL string literal (standard_conforming_strings is on: FerretDB
// checks it at connection).
func vsQuoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// vsExpr is the SQL expression of a top-level field, the same one FerretDB's indexes are built on
// (metadata/registry.go, patched): `_id` is never missing or null; other fields are coalesced so
// that missing equals null.
func vsExpr(field string) string {
	if field == "_id" {
		return "(" + metadata.DefaultColumn + "->'_id')"
	}

	return "COALESCE(" + metadata.DefaultColumn + "->" + vsQuoteLiteral(field) + ", 'null'::jsonb)"
}

// vsArg is the marker of a value in a condition; vsBuilder.finish numbers them.
const vsArg = "\x00"

// vsCond is one SQL condition with its values, in marker order.
type vsCond struct {
	sql  string
	args []any
}

// vsBound is a top-level `field op value` term, kept to find the bounds an `$or` implies.
type vsBound struct {
	field string
	op    string // "=", ">", ">=", "<", "<="
	value string // jsonb text
}

// vsBuilder translates a filter into SQL conditions over declared fields.
type vsBuilder struct {
	fields      map[string]vsClass
	containment bool // a condition is an array field's containment (GIN: no order)
}

// vsLiteral is the jsonb text of v when v belongs to class (null only when nullable).
func vsLiteral(class vsClass, v any, nullable bool) (string, bool) {
	switch v := v.(type) {
	case types.NullType:
		if nullable {
			return "null", true
		}

		return "", false
	case string:
		if class != vsString && class != vsStrings {
			return "", false
		}
	case int32, int64:
		if class != vsNumber {
			return "", false
		}
	case float64:
		if class != vsNumber || math.IsNaN(v) || math.IsInf(v, 0) {
			return "", false
		}
	case time.Time:
		if class != vsDate {
			return "", false
		}
	case bool:
		if class != vsBool {
			return "", false
		}
	case types.ObjectID:
		if class != vsObjectID {
			return "", false
		}
	default:
		return "", false
	}

	b, err := sjson.MarshalSingleValue(v)
	if err != nil {
		return "", false
	}

	return string(b), true
}

// filter returns conditions (to be ANDed) that select a superset of what filter matches, whether
// they select exactly that, and the top-level bounds among them.
func (b *vsBuilder) filter(filter *types.Document) ([]vsCond, bool, []vsBound) {
	var conds []vsCond
	var bounds []vsBound

	exact := true

	if filter == nil {
		return nil, true, nil
	}

	iter := filter.Iterator()
	defer iter.Close()

	for {
		k, v, err := iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			break
		}

		if err != nil {
			return nil, false, nil
		}

		switch {
		case k == "$comment":
			// selects nothing
		case k == "$and":
			arr, ok := v.(*types.Array)
			if !ok {
				exact = false
				continue
			}

			for i := 0; i < arr.Len(); i++ {
				sub, ok := vsGet(arr.Get(i)).(*types.Document)
				if !ok {
					exact = false
					continue
				}

				c, e, bs := b.filter(sub)
				conds = append(conds, c...)
				bounds = append(bounds, bs...)
				exact = exact && e
			}
		case k == "$or":
			c, e := b.or(v)
			conds = append(conds, c...)
			exact = exact && e
		case strings.HasPrefix(k, "$"), strings.Contains(k, "."):
			exact = false
		default:
			class, ok := b.fields[k]
			if !ok {
				exact = false
				continue
			}

			c, e, bs := b.field(k, class, v)
			conds = append(conds, c...)
			bounds = append(bounds, bs...)
			exact = exact && e
		}
	}

	return conds, exact, bounds
}

// vsGet returns v of a (value, error) pair whose error the caller has ruled out (an index within
// bounds, a key that is there) or handles through v's type (nil on error).
func vsGet(v any, _ error) any {
	return v
}

// or translates `$or`: exact when every branch is. A branch without conditions matches every
// document, and so does the `$or`. The bounds every branch shares on a field (the keyset anchor
// `{a: {$gt: x}} or {a: x, b: {$gt: y}}` implies `a >= x`) are added so the index range starts
// at the anchor.
func (b *vsBuilder) or(v any) ([]vsCond, bool) {
	arr, ok := v.(*types.Array)
	if !ok || arr.Len() == 0 {
		return nil, false
	}

	exact := true
	all := false

	var parts []string
	var args []any
	var branchBounds [][]vsBound

	for i := 0; i < arr.Len(); i++ {
		sub, ok := vsGet(arr.Get(i)).(*types.Document)
		if !ok {
			return nil, false
		}

		c, e, bs := b.filter(sub)
		exact = exact && e

		if len(c) == 0 {
			all = true
			continue
		}

		sqls := make([]string, len(c))
		for j, cond := range c {
			sqls[j] = cond.sql
			args = append(args, cond.args...)
		}

		parts = append(parts, "("+strings.Join(sqls, " AND ")+")")
		branchBounds = append(branchBounds, bs)
	}

	if all {
		return nil, exact
	}

	conds := []vsCond{{sql: "(" + strings.Join(parts, " OR ") + ")", args: args}}

	return append(conds, vsImpliedBounds(branchBounds)...), exact
}

// vsImpliedBounds returns `f >= x` when every branch has `f = x`, `f > x` or `f >= x` with the
// same x (and `f <= x` likewise): redundant for the result, it gives the planner an index range.
func vsImpliedBounds(branches [][]vsBound) []vsCond {
	if len(branches) < 2 {
		return nil
	}

	var conds []vsCond

	for _, first := range branches[0] {
		for _, dir := range []string{">=", "<="} {
			ok := true

			for _, branch := range branches {
				found := false

				for _, bound := range branch {
					if bound.field == first.field && bound.value == first.value && (bound.op == "=" || strings.HasPrefix(bound.op, dir[:1])) {
						found = true
						break
					}
				}

				if !found {
					ok = false
					break
				}
			}

			if ok {
				conds = append(conds, vsCond{sql: vsExpr(first.field) + " " + dir + " " + vsArg + "::jsonb", args: []any{first.value}})
			}
		}
	}

	return conds
}

// field translates the terms on one declared top-level field.
func (b *vsBuilder) field(k string, class vsClass, v any) ([]vsCond, bool, []vsBound) {
	e := vsExpr(k)

	if class == vsStrings {
		// `{f: "x"}` matches "x" and arrays holding "x": jsonb containment says exactly that.
		s, ok := v.(string)
		if d, isDoc := v.(*types.Document); isDoc && d.Len() == 1 {
			s, ok = vsGet(d.Get("$eq")).(string)
		}

		if !ok {
			return nil, false, nil
		}

		lit := vsGet(sjson.MarshalSingleValue(s)).([]byte)
		b.containment = true

		return []vsCond{{sql: metadata.DefaultColumn + "->" + vsQuoteLiteral(k) + " @> " + vsArg + "::jsonb", args: []any{string(lit)}}}, true, nil
	}

	if re, isRegex := v.(types.Regex); isRegex {
		return vsPrefixRange(k, class, re.Pattern, re.Options)
	}

	d, isDoc := v.(*types.Document)
	if !isDoc {
		lit, ok := vsLiteral(class, v, true)
		if !ok {
			return nil, false, nil
		}

		return []vsCond{{sql: e + " = " + vsArg + "::jsonb", args: []any{lit}}}, true, []vsBound{{field: k, op: "=", value: lit}}
	}

	if d.Len() == 0 || !strings.HasPrefix(d.Keys()[0], "$") {
		// equality with an embedded document: never equal to a scalar, but leave it to Go
		return nil, false, nil
	}

	var conds []vsCond
	var bounds []vsBound

	exact := true

	iter := d.Iterator()
	defer iter.Close()

	for {
		op, arg, err := iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			break
		}

		if err != nil {
			return nil, false, nil
		}

		switch op {
		case "$eq", "$ne":
			lit, ok := vsLiteral(class, arg, true)
			if !ok {
				exact = false
				continue
			}

			sqlOp := "="
			if op == "$ne" {
				sqlOp = "<>"
			}

			conds = append(conds, vsCond{sql: e + " " + sqlOp + " " + vsArg + "::jsonb", args: []any{lit}})

			if op == "$eq" {
				bounds = append(bounds, vsBound{field: k, op: "=", value: lit})
			}

		case "$gt", "$gte", "$lt", "$lte":
			lit, ok := vsLiteral(class, arg, false)
			if !ok {
				exact = false
				continue
			}

			sqlOp := map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}[op]
			conds = append(conds, vsCond{sql: e + " " + sqlOp + " " + vsArg + "::jsonb", args: []any{lit}})
			bounds = append(bounds, vsBound{field: k, op: sqlOp, value: lit})

			if op == "$lt" || op == "$lte" {
				// null (and missing) is the lowest jsonb value, but never in a MongoDB range
				conds = append(conds, vsCond{sql: e + " > 'null'::jsonb"})
			}

		case "$regex":
			pattern, options := "", ""

			switch re := arg.(type) {
			case string:
				pattern = re
				options, _ = vsGet(d.Get("$options")).(string)
			case types.Regex:
				pattern, options = re.Pattern, re.Options
			}

			c, e, _ := vsPrefixRange(k, class, pattern, options)
			conds = append(conds, c...)
			exact = exact && e

		case "$options":
			// read with $regex

		case "$in":
			arr, ok := arg.(*types.Array)
			if !ok {
				exact = false
				continue
			}

			if arr.Len() == 0 {
				conds = append(conds, vsCond{sql: "false"})
				continue
			}

			marks := make([]string, 0, arr.Len())
			args := make([]any, 0, arr.Len())

			for i := 0; i < arr.Len(); i++ {
				lit, ok := vsLiteral(class, vsGet(arr.Get(i)), true)
				if !ok {
					break
				}

				marks = append(marks, vsArg+"::jsonb")
				args = append(args, lit)
			}

			if len(args) != arr.Len() {
				exact = false
				continue
			}

			conds = append(conds, vsCond{sql: e + " IN (" + strings.Join(marks, ", ") + ")", args: args})

		default:
			exact = false
		}
	}

	return conds, exact, bounds
}

// vsPrefixRange translates an anchored regular expression on a string field into the index range
// of its literal prefix: exact when the pattern is nothing but `^` and literal characters.
func vsPrefixRange(k string, class vsClass, pattern, options string) ([]vsCond, bool, []vsBound) {
	if class != vsString || !strings.HasPrefix(pattern, "^") || strings.ContainsAny(options, "imx") {
		return nil, false, nil
	}

	var prefix []rune

	rest := []rune(pattern[1:])
	complete := true

	for i := 0; i < len(rest); i++ {
		r := rest[i]

		if r == '\\' && i+1 < len(rest) && strings.ContainsRune(`.\/^$|?*+()[]{}-@:'"#&%!~,;<>=_`, rest[i+1]) {
			prefix = append(prefix, rest[i+1])
			i++

			continue
		}

		if strings.ContainsRune(`.\^$|?*+()[]{}`, r) {
			if strings.ContainsRune("?*{", r) && len(prefix) > 0 {
				prefix = prefix[:len(prefix)-1] // the character before a quantifier may be absent
			}

			complete = false

			break
		}

		prefix = append(prefix, r)
	}

	if len(prefix) == 0 {
		return nil, false, nil
	}

	lower := vsGet(sjson.MarshalSingleValue(string(prefix))).([]byte)
	conds := []vsCond{{sql: vsExpr(k) + " >= " + vsArg + "::jsonb", args: []any{string(lower)}}}

	// Strings that start with the prefix sort below the prefix with its last character's successor
	// (code point order is UTF-8 byte order, the "C" collation's).
	last := prefix[len(prefix)-1] + 1
	if last >= 0xD800 && last < 0xE000 {
		last = 0xE000
	}

	if last <= 0x10FFFF {
		upper := vsGet(sjson.MarshalSingleValue(string(append(prefix[:len(prefix)-1:len(prefix)-1], last)))).([]byte)
		conds = append(conds, vsCond{sql: vsExpr(k) + " < " + vsArg + "::jsonb", args: []any{string(upper)}})
	} else {
		complete = false
	}

	return conds, complete, nil
}

// orderBy returns the ORDER BY clause of sort when every key is a declared scalar field.
func (b *vsBuilder) orderBy(sort *types.Document) (string, bool) {
	if sort.Len() == 0 {
		return "", true
	}

	parts := make([]string, 0, sort.Len())

	iter := sort.Iterator()
	defer iter.Close()

	for {
		k, v, err := iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			break
		}

		if err != nil {
			return "", false
		}

		class, ok := b.fields[k]
		if !ok || class == vsStrings {
			return "", false
		}

		var dir float64

		switch v := v.(type) {
		case int32:
			dir = float64(v)
		case int64:
			dir = float64(v)
		case float64:
			dir = v
		default:
			return "", false
		}

		switch dir {
		case 1:
			parts = append(parts, vsExpr(k))
		case -1:
			parts = append(parts, vsExpr(k)+" DESC")
		default:
			return "", false
		}
	}

	return " ORDER BY " + strings.Join(parts, ", "), true
}

// finish numbers the markers of conds and returns the WHERE clause and its arguments.
func vsFinish(p *metadata.Placeholder, conds []vsCond) (string, []any) {
	if len(conds) == 0 {
		return "", nil
	}

	var args []any

	sqls := make([]string, len(conds))
	for i, c := range conds {
		s := c.sql
		for range c.args {
			s = strings.Replace(s, vsArg, p.Next(), 1)
		}

		sqls[i] = s
		args = append(args, c.args...)
	}

	return " WHERE " + strings.Join(sqls, " AND "), args
}

// vsPlan is the SQL of a query when pushdown applies.
type vsPlan struct {
	where   string
	args    []any
	exact   bool   // the WHERE clause selects exactly what the filter matches
	orderBy string // set only when exact and the whole sort is pushed down
	applied bool   // sort, skip and limit are applied in SQL (only when exact)
	// The filter holds an array field's containment, which its GIN index serves with no order:
	// its matches are read first and sorted, so that the planner cannot walk another index in sort
	// order hoping to meet them soon (a scan's oldest findings were 98,000 rows down the
	// organization's newest-first index).
	matchesFirst bool
	limit        int64
	skip         int64
}

// vsPrepare builds the plan of params for a table with declarations fields.
func vsPrepare(fields map[string]vsClass, filter, sort *types.Document, limit, skip int64) *vsPlan {
	b := &vsBuilder{fields: fields}

	conds, exact, _ := b.filter(filter)

	var placeholder metadata.Placeholder

	plan := new(vsPlan)
	plan.where, plan.args = vsFinish(&placeholder, conds)
	plan.exact = exact

	if limit < 0 {
		limit = -limit
	}

	if exact {
		if orderBy, ok := b.orderBy(sort); ok {
			plan.orderBy = orderBy
			plan.applied = true
			plan.limit = limit
			plan.skip = skip
			plan.matchesFirst = b.containment && orderBy != ""
		}
	}

	return plan
}

// tail is the ORDER BY, LIMIT and OFFSET of the plan (literals: they are integers).
func (plan *vsPlan) tail() string {
	s := plan.orderBy

	if plan.limit > 0 {
		s += fmt.Sprintf(" LIMIT %d", plan.limit)
	}

	if plan.skip > 0 {
		s += fmt.Sprintf(" OFFSET %d", plan.skip)
	}

	return s
}

// vsQuery runs params with pushdown when the table declares fields; ok is false when upstream's
// path should run instead.
func (c *collection) vsQuery(ctx context.Context, p *pgxpool.Pool, meta *metadata.Collection, params *backends.QueryParams) (*backends.QueryResult, bool, error) {
	if meta.Capped() || params.OnlyRecordIDs || strings.Contains(params.Comment, vsOffComment) {
		if params.VsCount {
			return &backends.QueryResult{Iter: newQueryIterator(ctx, nil, false)}, true, nil
		}

		return nil, false, nil
	}

	fields, err := vsDeclarations(ctx, p, c.dbName, meta.TableName)
	if err != nil {
		return nil, false, lazyerrors.Error(err)
	}

	if len(fields) == 0 {
		if params.VsCount {
			// not done: the handler counts upstream's way
			return &backends.QueryResult{Iter: newQueryIterator(ctx, nil, false)}, true, nil
		}

		return nil, false, nil
	}

	plan := vsPrepare(fields, params.Filter, params.VsSort, params.VsLimit, params.VsSkip)
	table := pgx.Identifier{c.dbName, meta.TableName}.Sanitize()

	if params.VsCount {
		if !plan.applied {
			return &backends.QueryResult{Iter: newQueryIterator(ctx, nil, false)}, true, nil
		}

		plan.orderBy = ""

		q := `SELECT count(*) FROM ` + table + plan.where
		if plan.limit > 0 || plan.skip > 0 {
			q = `SELECT count(*) FROM (SELECT 1 FROM ` + table + plan.where + plan.tail() + `) AS q`
		}

		var n int64
		if err = p.QueryRow(ctx, q, plan.args...).Scan(&n); err != nil {
			return nil, false, lazyerrors.Error(err)
		}

		doc, err := types.NewDocument("n", n)
		if err != nil {
			return nil, false, lazyerrors.Error(err)
		}

		iter := iterator.Values(iterator.ForSlice([]*types.Document{doc}))

		return &backends.QueryResult{Iter: iter, VsApplied: true}, true, nil
	}

	q := prepareSelectClause(&selectParams{Schema: c.dbName, Table: meta.TableName, Comment: params.Comment}) + plan.where

	if plan.matchesFirst {
		q = `WITH vs_matches AS MATERIALIZED (` + q + `) SELECT ` + metadata.DefaultColumn + ` FROM vs_matches`
	}

	if plan.applied {
		q += plan.tail()
	} else if params.Limit != 0 && plan.exact {
		q += fmt.Sprintf(" LIMIT %d", params.Limit)
	}

	if excluded := vsExcluded(params.VsProjection, params.Filter, params.VsSort); len(excluded) > 0 {
		// Outside the query, so only the rows returned are trimmed, not every row a sort, skip or
		// limit reads (PostgreSQL computes the select list below those). Upstream's Go sort orders
		// what comes back.
		q = `SELECT ` + vsWithout(excluded) + ` FROM (` + q + `) AS vs`
	}

	rows, err := p.Query(ctx, q, plan.args...)
	if err != nil {
		return nil, false, lazyerrors.Error(err)
	}

	iter := &vsCheckedIterator{
		DocumentsIterator: newQueryIterator(ctx, rows, false),
		fields:            fields,
		table:             vsTableKey(c.dbName, meta.TableName),
	}

	return &backends.QueryResult{Iter: iter, VsApplied: plan.applied}, true, nil
}

// vsExcluded returns the fields an exclusion projection leaves out, when SQL may leave them out:
// top-level fields that neither the filter nor the sort reads (upstream's Go filter and sort run on
// what SQL returns). Nil for any other projection.
func vsExcluded(projection, filter, sort *types.Document) []string {
	if projection.Len() == 0 {
		return nil
	}

	read := map[string]bool{}
	if !vsFieldsRead(filter, read) {
		return nil
	}

	for _, k := range sort.Keys() {
		read[strings.SplitN(k, ".", 2)[0]] = true
	}

	excluded := make([]string, 0, projection.Len())

	for _, k := range projection.Keys() {
		v, _ := projection.Get(k)

		zero := false

		switch v := v.(type) {
		case bool:
			zero = !v
		case int32:
			zero = v == 0
		case int64:
			zero = v == 0
		case float64:
			zero = v == 0
		}

		if !zero || k == "_id" || strings.ContainsAny(k, ".$") || read[k] {
			return nil
		}

		excluded = append(excluded, k)
	}

	return excluded
}

// vsFieldsRead adds the top-level fields filter reads to read; false when it cannot tell
// (`$where`, `$expr` and the like).
func vsFieldsRead(filter *types.Document, read map[string]bool) bool {
	if filter == nil {
		return true
	}

	for _, k := range filter.Keys() {
		v, _ := filter.Get(k)

		switch {
		case k == "$and" || k == "$or" || k == "$nor":
			arr, ok := v.(*types.Array)
			if !ok {
				return false
			}

			for i := 0; i < arr.Len(); i++ {
				sub, ok := vsGet(arr.Get(i)).(*types.Document)
				if !ok || !vsFieldsRead(sub, read) {
					return false
				}
			}
		case k == "$comment":
		case strings.HasPrefix(k, "$"):
			return false
		default:
			read[strings.SplitN(k, ".", 2)[0]] = true
		}
	}

	return true
}

// vsWithout is the document without the excluded top-level fields, its schema ($s: p and $k)
// trimmed to match (jsonb `-` removes keys of an object and elements of an array).
func vsWithout(excluded []string) string {
	quoted := make([]string, len(excluded))
	for i, f := range excluded {
		quoted[i] = vsQuoteLiteral(f)
	}

	keys := "ARRAY[" + strings.Join(quoted, ", ") + "]::text[]"
	col := metadata.DefaultColumn

	return fmt.Sprintf(
		`jsonb_set(%[1]s - %[2]s, '{$s}', jsonb_build_object('p', (%[1]s->'$s'->'p') - %[2]s, '$k', (%[1]s->'$s'->'$k') - %[2]s)) AS %[1]s`,
		col, keys,
	)
}

// vsExplain is Explain with pushdown; ok is false when upstream's path should run instead.
func (c *collection) vsExplain(ctx context.Context, p *pgxpool.Pool, meta *metadata.Collection, params *backends.ExplainParams) (*backends.ExplainResult, bool, error) {
	if meta.Capped() {
		return nil, false, nil
	}

	fields, err := vsDeclarations(ctx, p, c.dbName, meta.TableName)
	if err != nil || len(fields) == 0 {
		return nil, false, err
	}

	plan := vsPrepare(fields, params.Filter, params.VsSort, params.VsLimit, params.VsSkip)

	stmt := prepareSelectClause(&selectParams{Schema: c.dbName, Table: meta.TableName}) + plan.where
	if plan.matchesFirst {
		stmt = `WITH vs_matches AS MATERIALIZED (` + stmt + `) SELECT ` + metadata.DefaultColumn + ` FROM vs_matches`
	}

	if plan.applied {
		stmt += plan.tail()
	}

	var b []byte
	if err = p.QueryRow(ctx, `EXPLAIN (VERBOSE true, FORMAT JSON) `+stmt, plan.args...).Scan(&b); err != nil {
		return nil, false, lazyerrors.Error(err)
	}

	queryPlan, err := unmarshalExplain(b)
	if err != nil {
		return nil, false, lazyerrors.Error(err)
	}

	return &backends.ExplainResult{
		QueryPlanner:   queryPlan,
		FilterPushdown: plan.where != "",
		SortPushdown:   plan.applied && plan.orderBy != "",
		LimitPushdown:  plan.applied && plan.limit > 0,
		VsSQL:          stmt,
		VsArgs:         plan.args,
	}, true, nil
}

// vsCheckedIterator checks every document it returns against the table's declarations.
type vsCheckedIterator struct {
	types.DocumentsIterator
	fields map[string]vsClass
	table  string
}

// Next implements iterator.Interface.
func (iter *vsCheckedIterator) Next() (struct{}, *types.Document, error) {
	k, doc, err := iter.DocumentsIterator.Next()
	if err != nil || doc == nil {
		return k, doc, err
	}

	for field, class := range iter.fields {
		v, _ := doc.Get(field)
		if v == nil || vsHolds(class, v) {
			continue
		}

		vsMarkBroken(iter.table)
		iter.DocumentsIterator.Close()

		return k, nil, lazyerrors.Errorf("vulnscan pushdown: %s.%s holds %T, declared %s; pushdown is off for the table", iter.table, field, v, class)
	}

	return k, doc, nil
}

// vsHolds tells whether v belongs to class (null always does).
func vsHolds(class vsClass, v any) bool {
	if _, ok := v.(types.NullType); ok {
		return true
	}

	if arr, ok := v.(*types.Array); ok && class == vsStrings {
		for i := 0; i < arr.Len(); i++ {
			if _, ok := vsGet(arr.Get(i)).(string); !ok {
				return false
			}
		}

		return true
	}

	_, ok := vsLiteral(class, v, false)

	return ok
}
