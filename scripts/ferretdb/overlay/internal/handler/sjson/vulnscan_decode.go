// vulnscan: reading stored documents without a json.Decoder per value.
//
// This file is added to FerretDB v1.24.0's source by the vulnscan build (scripts/stack/ferretdb.ts);
// it is not part of upstream FerretDB. See docs/decisions.md, "Database".

package sjson

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"
)

// Upstream decodes every value of every document it reads with a json.Decoder of its own (a
// buffer filled by copying) and decodes each document's schema, `$s`, anew. A list page of twenty
// 6 KB findings (about 150 strings each) cost FerretDB 22 ms of CPU, half of it in these decoders.
// vsUnmarshal decodes a value with json.Unmarshal, which refuses trailing data as checkConsumed
// did, and takes a string without escapes as it is; vsSchema keeps decoded schemas, which
// documents of one collection mostly share and nothing changes after decoding.

// vsUnmarshal decodes one JSON value into v.
func vsUnmarshal(data []byte, v any) error {
	if s, ok := v.(*string); ok {
		if plain, ok := vsPlainString(data); ok {
			*s = plain
			return nil
		}
	}

	return json.Unmarshal(data, v)
}

// vsPlainString returns a JSON string's text when it has no escape and is valid UTF-8: then the
// bytes between the quotes are the text, exactly as json.Unmarshal would give it.
func vsPlainString(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", false
	}

	inner := data[1 : len(data)-1]
	for _, c := range inner {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}

	if !utf8.Valid(inner) {
		return "", false
	}

	return string(inner), true
}

// vsSchemaCacheMax bounds the schemas kept: a few KB of text and its decoded form each.
const vsSchemaCacheMax = 512

var vsSchemas struct {
	sync.RWMutex
	m map[string]*schema
}

// vsSchema decodes a document's `$s`, or returns the one decoded from the same text before.
// Callers only read the schema.
func vsSchema(raw []byte) (*schema, error) {
	vsSchemas.RLock()
	cached := vsSchemas.m[string(raw)]
	vsSchemas.RUnlock()

	if cached != nil {
		return cached, nil
	}

	var sch schema
	r := bytes.NewReader(raw)
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()

	if err := dec.Decode(&sch); err != nil {
		return nil, err
	}

	if err := checkConsumed(dec, r); err != nil {
		return nil, err
	}

	vsSchemas.Lock()
	if vsSchemas.m == nil || len(vsSchemas.m) >= vsSchemaCacheMax {
		vsSchemas.m = make(map[string]*schema, vsSchemaCacheMax)
	}
	vsSchemas.m[string(raw)] = &sch
	vsSchemas.Unlock()

	return &sch, nil
}
