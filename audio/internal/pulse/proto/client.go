package proto

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"
	"time"
)

type Client struct {
	r ProtocolReader
	w ProtocolWriter
	v Version

	replyM     sync.Mutex
	writeM     sync.Mutex
	nextID     uint32                // protected by replyM
	awaitReply map[uint32]AwaitReply // protected by replyM
	timeout    time.Duration
	err        error // protected by replyM and writeM (hold one to read, hold both to write)

	Callback func(interface{})

	// tandem: the one Request message the read loop decodes each server
	// request into and hands to Callback, which must not keep it: upstream
	// allocated one per request, over a hundred a second.
	request Request
	// The stream's notices in steady state, read into these and handed to
	// Callback, which reads them before it returns: a notice allocates
	// nothing (tandem).
	overflow  Overflow
	underflow Underflow
	started   Started
	subscribe SubscribeEvent

	callsM sync.Mutex
	calls  []*call // free (Request)
}

type send struct {
	index uint32
	data  []byte
}

func (c *Client) Version() Version {
	return c.v
}

func (c *Client) SetVersion(v Version) {
	c.v = c.v.Min(v)
}

func (c *Client) SetTimeout(t time.Duration) {
	c.timeout = t
}

func (c *Client) Open(rw io.ReadWriter) {
	//debug, _ := os.Create("debug")
	//c.r.r = io.TeeReader(rw, debug)
	c.r.r = bufio.NewReader(rw)
	c.w.w = rw
	c.v = Version(32)

	c.awaitReply = make(map[uint32]AwaitReply)
	go c.readLoop()
}

type AwaitReply struct {
	value interface{}
	reply chan<- error
}

func (c *Client) Request(req RequestArgs, rpl Reply) error {
	if rpl != nil && req.command() != rpl.IsReplyTo() {
		panic("pulse: wrong reply type")
	}

	// tandem: a request's channel, timer and buffers are reused (call), so
	// that a request allocates nothing once the client has made as many
	// as run at once: upstream made a context, a channel, a buffer and a
	// writer each time, and tandem reads the server's timing under load.
	k := c.getCall()
	c.replyM.Lock()
	if c.err != nil {
		c.replyM.Unlock()
		c.putCall(k)
		return c.err
	}
	tag := c.nextID
	c.nextID++
	c.awaitReply[tag] = AwaitReply{rpl, k.reply}
	c.replyM.Unlock()

	k.buf.Reset()
	k.w.byte('L')
	k.w.uint32(req.command())
	k.w.byte('L')
	k.w.uint32(tag)
	k.w.value(req, c.v)
	k.w.flush()

	if err := c.Send(0xFFFFFFFF, k.buf.Bytes()); err != nil {
		c.forget(k, tag)
		return err
	}

	k.timer.Reset(c.timeout)
	select {
	case err := <-k.reply:
		k.timer.Stop()
		c.putCall(k)
		return err
	case <-k.timer.C:
		if err, came := c.forget(k, tag); came {
			return err // it came as the time ran out
		}
		return context.DeadlineExceeded
	}
}

// call is a request's reusable parts (tandem's): the reply's channel
// (buffered: the read loop never waits on it), the timeout's timer, and
// the request's buffer and writer.
type call struct {
	reply chan error
	timer *time.Timer
	buf   bytes.Buffer
	w     ProtocolWriter
}

// getCall takes a free call, or makes one.
func (c *Client) getCall() *call {
	c.callsM.Lock()
	if n := len(c.calls); n > 0 {
		k := c.calls[n-1]
		c.calls = c.calls[:n-1]
		c.callsM.Unlock()
		return k
	}
	c.callsM.Unlock()
	k := &call{reply: make(chan error, 1), timer: time.NewTimer(time.Hour)}
	k.timer.Stop()
	k.w.w = &k.buf
	return k
}

// putCall frees k, its channel empty and its timer stopped.
func (c *Client) putCall(k *call) {
	c.callsM.Lock()
	c.calls = append(c.calls, k)
	c.callsM.Unlock()
}

// forget stops waiting for tag's reply and frees k, its timer stopped or
// fired. When the read loop (or the connection's end) had already taken
// tag, its reply is on its way to k's channel: it is waited for, at most
// the client's timeout more, so that k is freed empty, and returned with
// came true; a read loop stuck in the reply keeps k, which is not freed.
func (c *Client) forget(k *call, tag uint32) (err error, came bool) {
	c.replyM.Lock()
	_, waiting := c.awaitReply[tag]
	delete(c.awaitReply, tag)
	c.replyM.Unlock()
	if !waiting {
		k.timer.Reset(c.timeout)
		select {
		case err = <-k.reply:
			k.timer.Stop()
		case <-k.timer.C:
			return nil, false
		}
		came = true
	}
	c.putCall(k)
	return err, came
}

func (c *Client) Send(index uint32, data []byte) error {
	c.writeM.Lock()
	if c.err != nil {
		c.writeM.Unlock()
		return c.err
	}
	c.w.uint32(uint32(len(data)))
	c.w.uint32(index)
	c.w.uint64(0)
	c.w.uint32(0)
	c.w.flush()
	c.w.w.Write(data)
	c.writeM.Unlock()
	return nil
}

func (c *Client) readLoop() {
	for {
		length := c.r.uint32()
		index := c.r.uint32()
		offset := c.r.uint64()
		flags := c.r.uint32()
		_, _ = offset, flags
		if c.r.err != nil {
			c.error(c.r.err)
			return
		}
		if index == 0xFFFFFFFF {
			c.r.byte() // L
			op := c.r.uint32()
			c.r.byte() // L
			tag := c.r.uint32()
			var message interface{}
			switch op {
			case OpError:
				c.r.byte()
				err := Error(c.r.uint32())
				c.replyM.Lock()
				a, ok := c.awaitReply[tag]
				delete(c.awaitReply, tag)
				c.replyM.Unlock()
				if ok {
					a.reply <- err
				}
			case OpReply:
				c.replyM.Lock()
				a, ok := c.awaitReply[tag]
				delete(c.awaitReply, tag)
				c.replyM.Unlock()
				if ok {
					if a.value != nil {
						if reflect.TypeOf(a.value).Elem().Kind() == reflect.Slice {
							c.parseInfoList(a.value, int(length)-10)
						} else {
							// tandem: a reply type may read only the
							// reply's first fields; the rest is skipped.
							start := c.r.pos
							c.r.value(a.value, c.v)
							c.r.skip(int(length) - 10 - (c.r.pos - start))
						}
					} else {
						c.r.advance(int(length) - 10)
					}
					a.reply <- nil
				} else {
					c.r.advance(int(length) - 10)
				}
			case OpRequest:
				c.request = Request{}
				message = &c.request
			case OpOverflow:
				c.overflow = Overflow{}
				message = &c.overflow
			case OpUnderflow:
				c.underflow = Underflow{}
				message = &c.underflow
			case OpPlaybackStreamKilled:
				message = &PlaybackStreamKilled{}
			case OpRecordStreamKilled:
				message = &RecordStreamKilled{}
			case OpSubscribeEvent:
				c.subscribe = SubscribeEvent{}
				message = &c.subscribe
			case OpPlaybackStreamSuspended:
				message = &PlaybackStreamSuspended{}
			case OpRecordStreamSuspended:
				message = &RecordStreamSuspended{}
			case OpPlaybackStreamMoved:
				message = &PlaybackStreamMoved{}
			case OpRecordStreamMoved:
				message = &RecordStreamMoved{}
			case OpClientEvent:
				message = &ClientEvent{}
			case OpPlaybackStreamEvent:
				message = &PlaybackStreamEvent{}
			case OpRecordStreamEvent:
				message = &RecordStreamEvent{}
			case OpStarted:
				c.started = Started{}
				message = &c.started
			case OpPlaybackBufferAttrChanged:
				message = &PlaybackBufferAttrChanged{}
			default:
				fmt.Println(op)
				c.r.advance(int(length) - 10)
			}
			if message != nil {
				c.r.value(message, c.v)
				if c.Callback != nil {
					c.Callback(message)
				}
			}
		} else {
			buf := c.r.tmpbytes(int(length))
			if c.Callback != nil {
				c.Callback(&DataPacket{index, buf})
			}
			c.r.pos += int(length)
		}
	}
}

func (c *Client) error(err error) {
	c.replyM.Lock()
	c.writeM.Lock()
	c.err = err
	c.writeM.Unlock()
	r := c.awaitReply
	c.awaitReply = make(map[uint32]AwaitReply)
	c.replyM.Unlock()
	for _, r := range r {
		r.reply <- err
	}
	if errors.Is(err, io.EOF) && c.Callback != nil {
		c.Callback(&ConnectionClosed{})
	}
}

func (c *Client) parseInfoList(value interface{}, length int) {
	start := c.r.pos
	for c.r.err == nil && c.r.pos-start < length {
		switch value := value.(type) {
		case *GetSinkInfoListReply:
			var v GetSinkInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetSourceInfoListReply:
			var v GetSourceInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetModuleInfoListReply:
			var v GetModuleInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetClientInfoListReply:
			var v GetClientInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetCardInfoListReply:
			var v GetCardInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetSinkInputInfoListReply:
			var v GetSinkInputInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetSourceOutputInfoListReply:
			var v GetSourceOutputInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		case *GetSampleInfoListReply:
			var v GetSampleInfoReply
			c.r.value(&v, c.v)
			*value = append(*value, &v)
		default:
			panic("wrong type")
		}
	}
}

type DataPacket struct {
	StreamIndex uint32
	Data        []byte
}

type ConnectionClosed struct{}
