/**
 * Hostile strings a server might put anywhere the host shows text: a tool's name, title or description, a server
 * id, argument values, result text (as markdown and as HTML), resource URIs and MIME types. Every payload that could
 * run script does `window.__xss++` (or `parent.__xss++` from a frame), so a test installs `window.__xss = 0`, renders
 * them, lets the page settle and asserts the counter is still 0, then checks the shadow DOM for `<script>`, `on*`
 * attributes and `javascript:` URLs. Shared by every element's tests.
 *
 * None of them reaches the network on its own when rendered safely; the few that name a remote URL (a tracking image,
 * a stylesheet) let a test also assert that nothing was fetched.
 */
export const XSS_PAYLOADS: string[] = [
  // Script elements, plain and disguised.
  '<script>window.__xss++</script>',
  '<SCRIPT>window.__xss++</SCRIPT>',
  '<ScRiPt>window.__xss++</sCrIpT>',
  '<script src="data:text/javascript,window.__xss++"></script>',
  '<scr<script>ipt>window.__xss++</scr</script>ipt>',
  '"><script>window.__xss++</script>',
  "'><script>window.__xss++</script>",
  '</textarea></pre></code><script>window.__xss++</script>',
  '<script type="module">window.__xss++</script>',
  '<<script>window.__xss++//<</script>',

  // Images and media with error handlers.
  '<img src=x onerror="window.__xss++">',
  '<img src=x onerror=window.__xss++>',
  "<img src='x' onerror='window.__xss++'>",
  '<IMG SRC=x OnErRoR=window.__xss++>',
  '<img/src/onerror=window.__xss++>',
  '<img src=x onerror\n=window.__xss++>',
  '<img src=x onerror\t=\twindow.__xss++>',
  '<img src=x onerror="&#119;&#105;&#110;&#100;&#111;&#119;.__xss++">',
  '<img src=x onerror="&#x77;indow.__xss++">',
  '<video><source onerror="window.__xss++"></video>',
  '<audio src=x onerror=window.__xss++></audio>',
  '<image src=x onerror=window.__xss++>',
  '<picture><img src=x onerror=window.__xss++></picture>',

  // SVG and MathML.
  '<svg onload=window.__xss++>',
  '<svg/onload=window.__xss++>',
  '<svg><script>window.__xss++</script></svg>',
  '<svg><animate onbegin=window.__xss++ attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:window.__xss++"><text x="20" y="20">x</text></a></svg>',
  '<svg><foreignObject><img src=x onerror=window.__xss++></foreignObject></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss++>',
  '<math href="javascript:window.__xss++">x</math>',

  // javascript: links in markdown.
  '[click me](javascript:window.__xss++)',
  '[click me](JaVaScRiPt:window.__xss++)',
  '[click me](javascript&#58;window.__xss++)',
  '[click me](&#106;avascript:window.__xss++)',
  '[click me](<javascript:window.__xss++>)',
  '[click me][ref]\n\n[ref]: javascript:window.__xss++',
  '<javascript:window.__xss++>',
  '[click me]( javascript:window.__xss++)',
  '[click me](java\tscript:window.__xss++)',
  '[![img](x)](javascript:window.__xss++)',

  // javascript: and data: links in HTML, forms and frames.
  '<a href="javascript:window.__xss++">x</a>',
  '<a href="  javascript:window.__xss++">x</a>',
  '<a href="jav&#x09;ascript:window.__xss++">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;:window.__xss++">x</a>',
  '<a href="vbscript:window.__xss++">x</a>',
  '<a href="data:text/html,<script>window.__xss++</script>">x</a>',
  '[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3MrKzwvc2NyaXB0Pg==)',
  '<form action="javascript:window.__xss++"><button>x</button></form>',
  '<button formaction="javascript:window.__xss++">x</button>',
  '<iframe src="javascript:parent.__xss++"></iframe>',
  '<iframe srcdoc="<script>parent.__xss++</script>"></iframe>',
  '<iframe src="data:text/html,<script>parent.__xss++</script>"></iframe>',
  '<iframe onload=window.__xss++></iframe>',
  '<object data="javascript:window.__xss++"></object>',
  '<embed src="data:text/html,<script>parent.__xss++</script>">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss++">',
  '<base href="javascript:window.__xss++//">',

  // Styles and expressions.
  '<div style="background:url(javascript:window.__xss++)">x</div>',
  '<div style="width: expression(window.__xss++)">x</div>',
  '<style>@import url(https://tracker.example/x.css);</style>',
  '<style onload=window.__xss++></style>',
  '<link rel=stylesheet href="https://tracker.example/x.css" onload=window.__xss++>',
  '<x style="animation:spin 1s" onanimationstart=window.__xss++>x</x>',

  // Event handlers on every kind of element and in every attribute form.
  '<div onmouseover="window.__xss++">hover</div>',
  "<div onclick='window.__xss++'>x</div>",
  '<div/onclick=window.__xss++>x</div>',
  '<body onload=window.__xss++>',
  '<input autofocus onfocus=window.__xss++>',
  '<select autofocus onfocus=window.__xss++></select>',
  '<textarea autofocus onfocus=window.__xss++></textarea>',
  '<details open ontoggle=window.__xss++>x</details>',
  '<marquee onstart=window.__xss++>x</marquee>',
  '<p ONMOUSEOVER=window.__xss++>x</p>',
  '<img src=x o\u0000nerror=window.__xss++>',

  // Markdown link and image tricks.
  '![x](x" onerror="window.__xss++)',
  '![x](javascript:window.__xss++)',
  '![tracker](https://tracker.example/pixel.png)',
  '[x](https://example.com "title\\" onmouseover=\\"window.__xss++")',
  '<div>\n\n<img src=x onerror=window.__xss++>\n\n</div>',
  '```html\n<script>window.__xss++</script>\n```',
  '`<img src=x onerror=window.__xss++>`',
  '<https://example.com" onmouseover="window.__xss++>',

  // Elements and attributes that fetch a server-chosen URL by themselves (no script, but a tracking request).
  '<audio src="https://tracker.example/a.mp3"></audio>',
  '<video poster="https://tracker.example/poster.png"></video>',
  '<video><source src="https://tracker.example/v.mp4" onerror="window.__xss++"></video>',
  '<video><track src="https://tracker.example/t.vtt"></video>',
  '<img srcset="https://tracker.example/a.png 1x">',
  '<picture><source srcset="https://tracker.example/s.png"><img alt="p"></picture>',
  '<table background="https://tracker.example/bg.png"><tr><td background="https://tracker.example/td.png">x</td></tr></table>',
  '<blockquote cite="https://tracker.example/c">quoted</blockquote>',

  // Parser confusion (mutation XSS), comments, templates.
  '<noscript><p title="</noscript><img src=x onerror=window.__xss++>">',
  '<svg></p><style><a id="</style><img src=1 onerror=window.__xss++>">',
  '<!--<img src="--><img src=x onerror=window.__xss++//">',
  '<![CDATA[<script>window.__xss++</script>]]>',
  '<template><script>window.__xss++</script></template>',
  '${window.__xss++}',
  "{{constructor.constructor('window.__xss++')()}}",
  '&lt;script&gt;window.__xss++&lt;/script&gt;',
  '&#60;img src=x onerror=window.__xss++&#62;',

  // Unicode tricks.
  '\uFF1Cscript\uFF1Ewindow.__xss++\uFF1C/script\uFF1E',
  '<scr\u200Bipt>window.__xss++</scr\u200Bipt>',
  '\u202E<img src=x onerror=window.__xss++>\u202C',
  '[click](java\u0000script:window.__xss++)',
  '[click](\u006Aavascript:window.__xss++)',
  '<a href="java\u200Bscript:window.__xss++">x</a>',
  '\u2028<img src=x onerror=window.__xss++>\u2029',
  'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss++"/>',
];
