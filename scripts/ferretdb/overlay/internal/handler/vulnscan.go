// vulnscan: atomic single-document writes and counts pushed down to the backend.
//
// This file is added to FerretDB v1.24.0's source by the vulnscan build (scripts/stack/ferretdb.ts);
// it is not part of upstream FerretDB. See docs/decisions.md, "Database".

package handler

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"sync"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// Upstream's update and findAndModify read the matching documents, apply the update in Go and
// write the result back by `_id`, with nothing in between: two concurrent `$inc` both read n and
// both write n+1, and two version-checked writers both see the old version. Here each update holds
// a lock from its read to its write, so each update of one FerretDB process is atomic, as
// MongoDB's are. A write whose filters all fix `_id` (`{_id: x, ...}`, nearly all of them) can only
// touch or insert those documents: it holds its collection's lock shared and, of 256 stripes chosen
// by the `_id`, those of its statements (a bulk update holds several), so writes to different
// documents run side by side. Any other write holds the collection's lock alone. Inserts need no lock: unique indexes decide between them. Several
// FerretDB processes on one PostgreSQL would need a lock in PostgreSQL instead; vulnscan runs one
// (the Kubernetes chart runs MongoDB).
type vsCollectionLock struct {
	all     sync.RWMutex
	stripes [256]sync.Mutex
}

var vsWriteLocks sync.Map // database + "\x00" + collection -> *vsCollectionLock

// vsLockWrite takes the locks of a write with these filters and returns their release.
func vsLockWrite(db, collection string, filters ...*types.Document) func() {
	l, _ := vsWriteLocks.LoadOrStore(db+"\x00"+collection, new(vsCollectionLock))
	lock := l.(*vsCollectionLock)

	// The stripes of every statement, taken in ascending order so that two writes never wait on each other.
	var held [256]bool

	for _, f := range filters {
		stripe, ok := vsStripe(f)
		if !ok {
			lock.all.Lock()

			return lock.all.Unlock
		}

		held[stripe] = true
	}

	lock.all.RLock()

	for i := range held {
		if held[i] {
			lock.stripes[i].Lock()
		}
	}

	return func() {
		for i := range held {
			if held[i] {
				lock.stripes[i].Unlock()
			}
		}

		lock.all.RUnlock()
	}
}

// vsStripe returns the stripe of the `_id` a filter fixes by equality, if it fixes one.
func vsStripe(filter *types.Document) (uint8, bool) {
	if filter == nil {
		return 0, false
	}

	id, err := filter.Get("_id")
	if err != nil {
		return 0, false
	}

	if d, ok := id.(*types.Document); ok {
		if d.Len() != 1 || d.Command() != "$eq" {
			return 0, false
		}

		id, _ = d.Get("$eq")
	}

	switch id.(type) {
	case *types.Document, *types.Array, types.Regex, nil:
		return 0, false
	}

	b, err := sjson.MarshalSingleValue(id)
	if err != nil {
		return 0, false
	}

	h := fnv.New32a()
	_, _ = h.Write(b)

	return uint8(h.Sum32()), true
}

// vsUpdateDocument is updateDocument under the write locks of its statements.
func (h *Handler) vsUpdateDocument(ctx context.Context, params *common.UpdateParams) (int32, int32, *types.Array, error) {
	filters := make([]*types.Document, len(params.Updates))
	for i, u := range params.Updates {
		filters[i] = u.Filter
	}

	defer vsLockWrite(params.DB, params.Collection, filters...)()

	return h.updateDocument(ctx, params)
}

// vsFindAndModifyDocument is findAndModifyDocument under its write locks.
func (h *Handler) vsFindAndModifyDocument(ctx context.Context, params *common.FindAndModifyParams) (*findAndModifyResult, error) {
	defer vsLockWrite(params.DB, params.Collection, params.Query)()

	return h.findAndModifyDocument(ctx, params)
}

// vsCountOf returns the count a backend computed for a VsCount query (ok false when it did not).
func vsCountOf(res *backends.QueryResult) (int64, bool, error) {
	defer res.Iter.Close()

	if !res.VsApplied {
		return 0, false, nil
	}

	_, doc, err := res.Iter.Next()
	if err != nil {
		return 0, false, lazyerrors.Error(err)
	}

	v, _ := doc.Get("n")
	n, ok := v.(int64)

	if !ok {
		return 0, false, lazyerrors.Errorf("vulnscan count: unexpected %T", v)
	}

	return n, true, nil
}

// vsNumber returns n as MongoDB's `$sum` and `count` do: int32 when it fits.
func vsNumber(n int64) any {
	if n <= math.MaxInt32 {
		return int32(n)
	}

	return n
}

// vsCountPipeline recognises the pipeline of the drivers' countDocuments:
// [{$match: f}, {$skip: n}?, {$limit: n}?, {$group: {_id: <constant>, <name>: {$sum: 1}}}].
func vsCountPipeline(stages []any) (filter *types.Document, skip, limit int64, id any, name string, ok bool) {
	if len(stages) < 2 {
		return nil, 0, 0, nil, "", false
	}

	docs := make([]*types.Document, len(stages))

	for i, s := range stages {
		d, isDoc := s.(*types.Document)
		if !isDoc || d.Len() != 1 {
			return nil, 0, 0, nil, "", false
		}

		docs[i] = d
	}

	if docs[0].Command() != "$match" {
		return nil, 0, 0, nil, "", false
	}

	v, _ := docs[0].Get("$match")
	if filter, ok = v.(*types.Document); !ok {
		return nil, 0, 0, nil, "", false
	}

	for _, d := range docs[1 : len(docs)-1] {
		cmd := d.Command()
		v, _ = d.Get(cmd)

		n, isInt := vsInt(v)
		if !isInt || n < 0 {
			return nil, 0, 0, nil, "", false
		}

		switch {
		case cmd == "$skip" && skip == 0 && limit == 0:
			skip = n
		case cmd == "$limit" && limit == 0 && n > 0:
			limit = n
		default:
			return nil, 0, 0, nil, "", false
		}
	}

	last := docs[len(docs)-1]
	if last.Command() != "$group" {
		return nil, 0, 0, nil, "", false
	}

	v, _ = last.Get("$group")

	group, isDoc := v.(*types.Document)
	if !isDoc || group.Len() != 2 || group.Keys()[0] != "_id" {
		return nil, 0, 0, nil, "", false
	}

	id = group.Values()[0]
	switch id := id.(type) {
	case string:
		if strings.HasPrefix(id, "$") {
			return nil, 0, 0, nil, "", false
		}
	case int32, int64, float64, bool, types.NullType:
	default:
		return nil, 0, 0, nil, "", false
	}

	name = group.Keys()[1]

	acc, isDoc := group.Values()[1].(*types.Document)
	if !isDoc || acc.Len() != 1 || acc.Command() != "$sum" {
		return nil, 0, 0, nil, "", false
	}

	if one, isInt := vsInt(acc.Values()[0]); !isInt || one != 1 {
		return nil, 0, 0, nil, "", false
	}

	return filter, skip, limit, id, name, true
}

// vsInt returns a whole number of any BSON number type.
func vsInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int32:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), true
		}
	}

	return 0, false
}

// vsAggregateCount answers a countDocuments pipeline with one count in the backend; ok is false
// when the pipeline is another one or the backend cannot count its filter exactly.
func (h *Handler) vsAggregateCount(ctx context.Context, c backends.Collection, stages []any) (types.DocumentsIterator, bool, error) {
	if h.DisablePushdown {
		return nil, false, nil
	}

	filter, skip, limit, id, name, ok := vsCountPipeline(stages)
	if !ok {
		return nil, false, nil
	}

	res, err := c.Query(ctx, &backends.QueryParams{Filter: filter, VsCount: true, VsSkip: skip, VsLimit: limit})
	if err != nil {
		return nil, false, lazyerrors.Error(err)
	}

	n, ok, err := vsCountOf(res)
	if err != nil || !ok {
		return nil, false, err
	}

	var docs []*types.Document

	if n > 0 {
		doc, err := types.NewDocument("_id", id, name, vsNumber(n))
		if err != nil {
			return nil, false, lazyerrors.Error(err)
		}

		docs = append(docs, doc)
	}

	return iterator.Values(iterator.ForSlice(docs)), true, nil
}

// vsArgsArray is the explain output of a pushed-down statement's arguments (all jsonb texts).
func vsArgsArray(args []any) *types.Array {
	arr := types.MakeArray(len(args))

	for _, a := range args {
		if s, ok := a.(string); ok {
			arr.Append(s)
		}
	}

	return arr
}
