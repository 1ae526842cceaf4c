//! DXP layer 1 (the SOCKET protocol): messages over a TCP stream, each
//! ended by one NUL byte. A reader task cuts the incoming bytes into frames
//! and parses them, so that the game loop waits on a channel (safe to
//! abandon in `select!`); sending writes the text, the NUL and flushes.
//! Every message in either direction is logged at debug level.

use super::message::{MAX_LEN, Message, ParseError};
use std::io;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

/// The default DXP port.
pub const DEFAULT_PORT: u16 = 27531;

/// Longest frame kept in memory; the rest of a longer one is skipped (the
/// protocol allows 127 characters, so anything longer is a broken peer).
const MAX_FRAME: usize = 4 * MAX_LEN;

/// What the peer sent.
#[derive(Debug)]
pub enum Incoming {
    /// A well-formed message.
    Msg(Message),
    /// A frame that is not a message: its bytes (cut to a few hundred) and why.
    Bad(Vec<u8>, ParseError),
    /// The connection ended (cleanly or with the error given).
    Closed(Option<String>),
}

/// One connection: the writing half and the reader task's channel.
pub struct Link {
    writer: Box<dyn AsyncWrite + Unpin + Send>,
    inbox: UnboundedReceiver<Incoming>,
    /// The reader task, ended when the link is dropped.
    reader: tokio::task::JoinHandle<()>,
    closed: bool,
    /// The peer's address, for the logs.
    pub peer: String,
}

impl Link {
    /// Starts the reader task (on the current tokio runtime) for `reader`;
    /// `writer` is the other half of the same stream.
    pub fn new(
        reader: impl AsyncRead + Unpin + Send + 'static,
        writer: impl AsyncWrite + Unpin + Send + 'static,
        peer: String,
    ) -> Link {
        let (tx, inbox) = unbounded_channel();
        let who = peer.clone();
        let reader = tokio::spawn(async move {
            let mut r = BufReader::new(reader);
            loop {
                let item = read_frame(&mut r, &who).await;
                let last = matches!(item, Incoming::Closed(_));
                if tx.send(item).is_err() || last {
                    break;
                }
            }
        });
        Link {
            writer: Box::new(writer),
            inbox,
            reader,
            closed: false,
            peer,
        }
    }

    /// A link over a TCP stream.
    pub fn tcp(stream: tokio::net::TcpStream) -> Link {
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "?".to_string(), |a| a.to_string());
        let _ = stream.set_nodelay(true);
        let (r, w) = stream.into_split();
        Link::new(r, w, peer)
    }

    /// Sends one message (its text and a NUL).
    pub async fn send(&mut self, m: &Message) -> io::Result<()> {
        let text = m.format();
        log::debug!("dxp {} -> {text}", self.peer);
        let mut bytes = text.into_bytes();
        bytes.push(0);
        self.writer.write_all(&bytes).await?;
        self.writer.flush().await
    }

    /// Sends a CHAT, ignoring a failure (the next read reports it).
    pub async fn chat(&mut self, text: &str) {
        if let Err(e) = self.send(&Message::Chat(text.to_string())).await {
            log::warn!("dxp {}: cannot send chat: {e}", self.peer);
        }
    }

    /// The next thing the peer sent; `Closed` again and again once the
    /// connection has ended.
    pub async fn recv(&mut self) -> Incoming {
        if self.closed {
            return Incoming::Closed(None);
        }
        let item = self.inbox.recv().await.unwrap_or(Incoming::Closed(None));
        if matches!(item, Incoming::Closed(_)) {
            self.closed = true;
        }
        item
    }

    /// Closes the sending side (the peer sees end of stream).
    pub async fn shutdown(&mut self) {
        let _ = self.writer.shutdown().await;
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Reads up to the next NUL. A frame cut by the end of the stream is
/// reported and then the end; a frame longer than `MAX_FRAME` is kept cut.
async fn read_frame<R: AsyncRead + Unpin>(r: &mut BufReader<R>, who: &str) -> Incoming {
    let mut frame: Vec<u8> = Vec::new();
    let mut length = 0usize;
    loop {
        let chunk = match r.fill_buf().await {
            Ok(c) => c,
            Err(e) => return Incoming::Closed(Some(e.to_string())),
        };
        if chunk.is_empty() {
            if length > 0 {
                log::warn!(
                    "dxp {who} <- {} bytes without their closing NUL before the end of the stream",
                    length
                );
            }
            return Incoming::Closed(None);
        }
        let (used, done) = match chunk.iter().position(|&b| b == 0) {
            Some(i) => (i + 1, Some(i)),
            None => (chunk.len(), None),
        };
        let body = &chunk[..done.unwrap_or(used)];
        let room = MAX_FRAME.saturating_sub(frame.len());
        frame.extend_from_slice(&body[..body.len().min(room)]);
        length += body.len();
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    let shown = String::from_utf8_lossy(&frame).into_owned();
    log::debug!("dxp {who} <- {shown}");
    if length > frame.len() {
        return Incoming::Bad(frame, ParseError::TooLong(length));
    }
    match Message::parse(&frame) {
        Ok(m) => Incoming::Msg(m),
        Err(e) => Incoming::Bad(frame, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn frames_are_cut_at_nul() {
        let (a, b) = tokio::io::duplex(64);
        let (ra, wa) = tokio::io::split(a);
        let (rb, mut wb) = tokio::io::split(b);
        let mut link = Link::new(ra, wa, "test".into());
        let mut bytes = b"E00\0Chello\0\0X\0M0012".to_vec();
        bytes.extend(std::iter::repeat_n(b'9', 600));
        bytes.extend(b"\0K1\0E0");
        let writer = tokio::spawn(async move {
            wb.write_all(&bytes).await.unwrap();
            wb.shutdown().await.unwrap();
            rb
        });
        let mut got = Vec::new();
        loop {
            let i = link.recv().await;
            let end = matches!(i, Incoming::Closed(_));
            got.push(i);
            if end {
                break;
            }
        }
        let _ = writer.await;
        assert!(matches!(
            got[0],
            Incoming::Msg(Message::GameEnd { stop: false, .. })
        ));
        assert!(matches!(&got[1], Incoming::Msg(Message::Chat(t)) if t == "hello"));
        assert!(matches!(got[2], Incoming::Bad(_, ParseError::Empty)));
        assert!(matches!(
            got[3],
            Incoming::Bad(_, ParseError::UnknownType('X'))
        ));
        assert!(matches!(got[4], Incoming::Bad(_, ParseError::TooLong(605))));
        assert!(matches!(
            got[5],
            Incoming::Msg(Message::BackAcc(
                super::super::message::BackAcceptance::NotSupported
            ))
        ));
        assert!(matches!(got[6], Incoming::Closed(None)));
        assert_eq!(got.len(), 7);
        assert!(matches!(link.recv().await, Incoming::Closed(None)));
    }

    #[tokio::test]
    async fn sending_appends_one_nul() {
        let (a, b) = tokio::io::duplex(64);
        let (ra, wa) = tokio::io::split(a);
        let (mut rb, _wb) = tokio::io::split(b);
        let mut link = Link::new(ra, wa, "test".into());
        link.send(&Message::Chat("hi".into())).await.unwrap();
        link.shutdown().await;
        let mut out = Vec::new();
        tokio::io::AsyncReadExt::read_to_end(&mut rb, &mut out)
            .await
            .unwrap();
        assert_eq!(out, b"Chi\0");
    }
}
