// The script every served document carries for the viewer's anchored comments (issue 31). It does nothing
// until the page around its frame says hello (a document opened on its own has no such page): then it
// reports what the person selects as a TextQuoteSelector (the passage, with a little text either side),
// and draws the highlights the page asks for with the CSS Custom Highlight API, which leaves the drop's
// own DOM untouched (a browser without that API draws none, and says nothing found). It is given no
// passcode, token or cookie, and has none to give.
//
// The text model is the body's text nodes in order, leaving out scripts, styles and form fields, so the
// selector a selection yields is found again in the same document.
import { ANCHOR_CONTEXT_UNITS, FRAME_MESSAGES as M, HIGHLIGHTS, HIGHLIGHTS_MAX } from "@/lib/comments/frame-protocol";

const SOURCE = `(function(){
var w=window,d=document,p=w.parent,origin=null,timer=0,last="null",ranges={};
if(p===w)return;
function model(){
  var list=[],text="",root=d.body||d.documentElement;
  var walker=d.createTreeWalker(root,4,{acceptNode:function(n){return /^(SCRIPT|STYLE|NOSCRIPT|TEXTAREA)$/.test(n.parentNode.nodeName)?2:1;}});
  for(var n=walker.nextNode();n;n=walker.nextNode()){list.push({n:n,at:text.length});text+=n.data;}
  return {list:list,text:text};
}
function selection(){
  var s=w.getSelection();
  if(!s||!s.rangeCount||s.isCollapsed)return null;
  var r=s.getRangeAt(0),m=model(),start=-1,end=-1;
  for(var i=0;i<m.list.length;i++){
    var t=m.list[i];
    if(!r.intersectsNode(t.n)){if(start>=0)break;continue;}
    if(start<0)start=t.at+(t.n===r.startContainer?r.startOffset:0);
    end=t.at+(t.n===r.endContainer?r.endOffset:t.n.data.length);
  }
  if(start<0)return null;
  var exact=m.text.slice(start,end),lead=exact.length-exact.replace(/^\\s+/,"").length;
  start+=lead;exact=exact.slice(lead).replace(/\\s+$/,"");end=start+exact.length;
  if(!exact)return null;
  var anchor={exact:exact},prefix=m.text.slice(Math.max(0,start-${ANCHOR_CONTEXT_UNITS}),start).replace(/^[\\udc00-\\udfff]/,""),suffix=m.text.slice(end,end+${ANCHOR_CONTEXT_UNITS}).replace(/[\\ud800-\\udbff]$/,"");
  if(prefix)anchor.prefix=prefix;
  if(suffix)anchor.suffix=suffix;
  var b=r.getBoundingClientRect();
  return {anchor:anchor,box:{x:b.left,y:b.top,width:b.width,height:b.height}};
}
function point(m,offset,end){
  var lo=0,hi=m.list.length-1;
  while(lo<hi){var mid=(lo+hi+1)>>1,at=m.list[mid].at;if(end?at<offset:at<=offset)lo=mid;else hi=mid-1;}
  return [m.list[lo].n,offset-m.list[lo].at];
}
function locate(m,a){
  var text=m.text,pre=typeof a.prefix==="string"?a.prefix:"",suf=typeof a.suffix==="string"?a.suffix:"",best=-1,score=-1,tries=0;
  for(var at=text.indexOf(a.exact);at>=0&&tries<1000;at=text.indexOf(a.exact,at+1),tries++){
    var s=0,e=0,after=at+a.exact.length;
    while(s<pre.length&&text[at-1-s]===pre[pre.length-1-s])s++;
    while(e<suf.length&&text[after+e]===suf[e])e++;
    if(s+e>score){score=s+e;best=at;}
  }
  if(best<0)return null;
  var r=d.createRange(),from=point(m,best,false),to=point(m,best+a.exact.length,true);
  r.setStart(from[0],from[1]);r.setEnd(to[0],to[1]);
  return r;
}
function drawable(){return !!(w.CSS&&CSS.highlights&&w.Highlight);}
function highlight(anchors){
  if(!drawable())return;
  var m=model(),found=[],all=[];
  ranges={};
  for(var i=0;i<anchors.length&&i<${HIGHLIGHTS_MAX};i++){
    var a=anchors[i];
    if(!a||typeof a.id!=="string"||typeof a.exact!=="string"||!a.exact)continue;
    var r=locate(m,a);
    if(r){ranges[a.id]=r;all.push(r);found.push(a.id);}
  }
  CSS.highlights.set("${HIGHLIGHTS.all}",new Highlight(...all));
  CSS.highlights.delete("${HIGHLIGHTS.revealed}");
  send({type:"${M.anchored}",found:found});
}
function reveal(id){
  var r=typeof id==="string"&&Object.prototype.hasOwnProperty.call(ranges,id)?ranges[id]:null;
  if(!r)return;
  var e=r.startContainer.parentElement;
  if(e)e.scrollIntoView({block:"center"});
  CSS.highlights.set("${HIGHLIGHTS.revealed}",new Highlight(r));
}
function send(message){if(origin)p.postMessage(message,origin);}
function report(){
  var now=JSON.stringify(selection());
  if(now!==last){last=now;send({type:"${M.selection}",selection:JSON.parse(now)});}
}
w.addEventListener("message",function(e){
  var m=e.data;
  if(e.source!==p||!m||typeof m!=="object")return;
  if(m.type==="${M.hello}"){origin=e.origin==="null"?"*":e.origin;last="null";send({type:"${M.ready}"});report();return;}
  if(!origin)return;
  if(m.type==="${M.highlight}"&&Array.isArray(m.anchors))highlight(m.anchors);
  else if(m.type==="${M.reveal}")reveal(m.id);
});
function later(){clearTimeout(timer);timer=setTimeout(report,150);}
d.addEventListener("selectionchange",later);
w.addEventListener("scroll",later,true);
})()`;

/** The script, one line: no line comments inside, every statement ended, so joining the lines changes nothing. */
export const COMMENT_ANCHORS_SCRIPT = SOURCE.replace(/\n\s*/g, "");

/** How the highlights look: a tint that reads on light and dark pages alike, and an underline so colour is not the only sign. */
export const COMMENT_ANCHORS_STYLE =
  `::highlight(${HIGHLIGHTS.all}){background-color:rgba(250,204,21,.45);text-decoration:underline 2px rgba(202,138,4,.95)}` +
  `::highlight(${HIGHLIGHTS.revealed}){background-color:rgba(249,115,22,.55)}`;
