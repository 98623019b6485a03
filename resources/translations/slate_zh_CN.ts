<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Banner</name>
    <message>
        <source>New slot</source>
        <translation>新槽位</translation>
    </message>
    <message>
        <source>Nothing has been sent yet. Name the slot, write the prompt, then press Create.</source>
        <translation>尚未发送任何内容。为槽位命名、写好提示词，然后点击“创建”。</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>The create request is on its way. Slate recorded it first, so it can never be sent twice.</source>
        <translation>创建请求正在发送。Slate 已先行记录，因此绝不会重复发送。</translation>
    </message>
    <message>
        <source>Running at the provider</source>
        <translation>服务商处理中</translation>
    </message>
    <message>
        <source>The provider accepted the task and is preparing it. You can close Slate: it picks up where it left off.</source>
        <translation>服务商已接受任务，正在准备。可以关闭 Slate：下次启动会从这里继续。</translation>
    </message>
    <message>
        <source>Waiting in the provider&apos;s queue</source>
        <translation>在服务商队列中等待</translation>
    </message>
    <message>
        <source>The task is queued at the provider. You can close Slate: it picks up where it left off.</source>
        <translation>任务正在服务商处排队。可以关闭 Slate：下次启动会从这里继续。</translation>
    </message>
    <message>
        <source>Generating</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>The provider is generating. You can close Slate: it picks up where it left off.</source>
        <translation>服务商正在生成。可以关闭 Slate：下次启动会从这里继续。</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>下载中</translation>
    </message>
    <message>
        <source>The provider finished. Slate is downloading and verifying the media.</source>
        <translation>服务商已完成。Slate 正在下载并校验媒体文件。</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>The media are checked and saved on this computer. Export them, or use Edit as new slot for a variation.</source>
        <translation>媒体已校验并保存在这台电脑上。可以导出，或用“编辑为新槽位”做一个变体。</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Show the provider&apos;s own words</source>
        <translation>显示服务商的原始说明</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>usually %1–%2 (from your last %3 like it)</source>
        <translation>通常需要 %1–%2（根据你最近 %3 个同类任务）</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>大约还剩 %1</translation>
    </message>
    <message>
        <source>taking longer than usual</source>
        <translation>比平时慢</translation>
    </message>
    <message>
        <source>no estimate yet: none like it finished before</source>
        <translation>暂无预估：之前没有完成过同类任务</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>This slot will not change again. Start a New slot to try again.</source>
        <translation>这个槽位不会再变化。请用“新槽位”重新尝试。</translation>
    </message>
    <message>
        <source>Refused by the provider</source>
        <translation>被服务商拒绝</translation>
    </message>
    <message>
        <source>No task was made and nothing was billed. You may Create again with the same parameters, or start a New slot.</source>
        <translation>没有生成任务，也没有计费。可以用相同参数再次创建，或开始一个新槽位。</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>The create request left and no clear answer came back. Slate will not create again. Query the provider, or Recover.</source>
        <translation>创建请求已发出，但没有收到明确答复。Slate 不会再次创建。请向服务商查询，或进行恢复。</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>The provider cancelled the task while it was queued; nothing was billed. Start a New slot to try again.</source>
        <translation>任务在排队时已被服务商取消，未产生费用。如需重试，请新建槽位。</translation>
    </message>
    <message>
        <source>The create request left at %1 and no clear answer came back. Slate will not create again. Query the provider, or Recover.</source>
        <translation>创建请求已于 %1 发出，但没有收到明确答复。Slate 不会再次创建。请向服务商查询，或使用“恢复”。</translation>
    </message>
    <message>
        <source>The create request left at %1 and its answer never arrived, so there is no task to ask the provider about. Slate will not create again. Recover: attach the task id from the provider&apos;s console, or declare the slot failed.</source>
        <translation>创建请求已于 %1 发出，但应答始终没有到达，因此没有可向服务商查询的任务。Slate 不会再次创建。请使用“恢复”：关联你在服务商控制台找到的任务 ID，或将该槽位声明为失败。</translation>
    </message>
    <message>
        <source>The create request left at %1 and its answer never arrived, so there is no task to ask the provider about. Slate will not create again. Recover: look the task up at the provider, attach its task id, or declare the slot failed.</source>
        <translation>创建请求已于 %1 发出，但应答始终没有到达，因此没有可向服务商查询的任务。Slate 不会再次创建。请使用“恢复”：在服务商处查找该任务、关联其任务 ID，或将该槽位声明为失败。</translation>
    </message>
    <message>
        <source>The create request left at %1 and no clear answer came back. Slate will not create again. The provider cannot be asked about image tasks, so there is nothing to query: when you are sure nothing was made, Recover and declare the slot failed.</source>
        <translation>创建请求已于 %1 发出，但没有收到明确答复。Slate 不会再次创建。服务商无法查询图片任务，因此没有可查询的内容：确定没有生成任何内容后，请使用“恢复”将该槽位声明为失败。</translation>
    </message>
    <message>
        <source>The create request left at %1 and its answer, the sound itself, was lost. MiniMax keeps no record of a song or a short voice line to look up, so there is nothing to ask and nothing to attach. Slate will not create again: it may have been made and billed. Recover and declare the slot failed, then make it again in a new slot.</source>
        <translation>创建请求已于 %1 发出，但它的回复（也就是声音本身）丢失了。MiniMax 不保留歌曲或短语音的任何记录可供查找，所以既无从查询，也无从关联。Slate 不会再次创建：它可能已经生成并计费。请点“恢复”并将此槽位标记为失败，然后在新槽位中重新制作。</translation>
    </message>
    <message>
        <source>The voice design request left at %1 and its answer was lost. The voice may have been made and billed; Slate will not send it again. Recover: Slate looks the voice up in your MiniMax voices by the id this slot sent — found, it is attached; not found, declare the slot failed.</source>
        <translation>音色设计请求已于 %1 发出，但它的回复丢失了。这个音色可能已经生成并计费；Slate 不会再次发送。请点“恢复”：Slate 会按此槽位发送的音色 ID 在你的 MiniMax 音色中查找——找到就关联；找不到，再将此槽位标记为失败。</translation>
    </message>
    <message>
        <source>The media were checked, then deleted from this computer (Tidy up). The slot, its history and its cost stay.</source>
        <translation>媒体曾经校验，之后已从这台电脑删除（整理）。槽位、历史和费用都会保留。</translation>
    </message>
    <message>
        <source>The media were checked, then deleted from this computer by Tidy up. The record stays.</source>
        <translation>媒体校验后已通过“整理”从这台电脑删除。记录保留。</translation>
    </message>
</context>
<context>
    <name>BarChart</name>
    <message>
        <source>Nothing spent yet.</source>
        <translation>还没有任何花费。</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Actual size</source>
        <translation>实际大小</translation>
    </message>
    <message>
        <source>▶ Play both</source>
        <translation>▶ 同时播放</translation>
    </message>
    <message>
        <source>Swap A and B</source>
        <translation>交换 A 和 B</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭 (Esc)</translation>
    </message>
    <message>
        <source>Zoom and pan move both sides together.</source>
        <translation>缩放和平移会同时作用于两侧。</translation>
    </message>
    <message>
        <source>Play, pause and scrub move both sides together.</source>
        <translation>播放、暂停和拖动进度会同时作用于两侧。</translation>
    </message>
    <message>
        <source>❚❚ Pause both</source>
        <translation>❚❚ 同时暂停</translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <source>This RequestId is already used</source>
        <translation>这个槽位全名已被占用</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; already holds a task made with other parameters. Nothing was sent and nothing was charged. Slate never reuses a slot for other parameters: create them as a new slot instead.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 已有一个用其他参数创建的任务。本次没有发送，也没有计费。Slate 绝不会用其他参数复用槽位：请将它们创建为新槽位。</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Stored in the slot</source>
        <translation>槽位中已保存</translation>
    </message>
    <message>
        <source>In the form</source>
        <translation>表单中</translation>
    </message>
    <message>
        <source>New RequestId</source>
        <translation>新的槽位全名</translation>
    </message>
    <message>
        <source>New slot</source>
        <translation>新槽位</translation>
    </message>
    <message>
        <source>Create as new slot</source>
        <translation>创建为新槽位</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
</context>
<context>
    <name>CreateForm</name>
    <message>
        <source>Nothing to paste here: the clipboard holds no picture. Copy an image or an image file (or an https:// link to one), then paste again.</source>
        <translation>这里没有可粘贴的内容：剪贴板里没有图片。请先复制一张图片或图片文件（或指向图片的 https:// 链接），再粘贴。</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Describe the shot: subject, motion, camera, light…</source>
        <translation>描述画面：主体、动作、镜头、光线……</translation>
    </message>
    <message>
        <source>adaptive (follows the image or video)</source>
        <translation>自适应（跟随图片或视频）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>best quality</source>
        <translation>最佳质量</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>Let the provider refine the prompt</source>
        <translation>让服务商优化提示词</translation>
    </message>
    <message>
        <source>First frame</source>
        <translation>首帧</translation>
    </message>
    <message>
        <source>Last frame</source>
        <translation>尾帧</translation>
    </message>
    <message>
        <source>Subject reference</source>
        <translation>主体参考</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>分辨率</translation>
    </message>
    <message>
        <source>Aspect ratio</source>
        <translation>宽高比</translation>
    </message>
    <message>
        <source>Prompt expansion</source>
        <translation>提示词扩写</translation>
    </message>
    <message>
        <source>Number of images</source>
        <translation>图片数量</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Prompt optimizer</source>
        <translation>提示词优化</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>画面比例</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Expansion</source>
        <translation>扩写</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>References</source>
        <translation>参考素材</translation>
    </message>
    <message>
        <source>— Legacy (Hailuo) —</source>
        <translation>— 旧版（海螺）—</translation>
    </message>
    <message>
        <source>Prompt expansion is a MiniMax-H3-Max feature; %1 follows your prompt as written.</source>
        <translation>提示词扩写是 MiniMax-H3-Max 的功能；%1 会按你写的提示词生成。</translation>
    </message>
    <message>
        <source>“adaptive” takes its shape from a first frame or a reference image or video; without one, choose a fixed ratio.</source>
        <translation>“自适应”会跟随首帧或参考图片/视频的形状；没有这些时，请选择固定比例。</translation>
    </message>
    <message>
        <source>Frames and references don&apos;t mix: remove the references to start from a frame.</source>
        <translation>首尾帧和参考素材不能同时使用：要从某一帧开始，请先移除参考素材。</translation>
    </message>
    <message>
        <source>References and frames don&apos;t mix: clear the first and last frame to use references.</source>
        <translation>参考素材和首尾帧不能同时使用：要使用参考素材，请先清除首帧和尾帧。</translation>
    </message>
    <message>
        <source>%1 needs a first frame before a last frame.</source>
        <translation>%1 需要先有首帧，才能设置尾帧。</translation>
    </message>
    <message>
        <source>Cost: price unknown</source>
        <translation>费用：价格未知</translation>
    </message>
    <message>
        <source>Cost: about %1</source>
        <translation>费用：约 %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source> · today %1 of %2 budget</source>
        <translation> · 今日已用 %1，预算 %2</translation>
    </message>
    <message>
        <source> — over what is left today; Create will be refused</source>
        <translation> — 超出今日剩余预算，创建会被拒绝</translation>
    </message>
    <message>
        <source>pasted picture</source>
        <translation>粘贴的图片</translation>
    </message>
    <message>
        <source>%1 is not a picture, a video or a sound clip Slate can use.</source>
        <translation>%1 不是 Slate 能使用的图片、视频或音频。</translation>
    </message>
    <message>
        <source>%1: a frame must be a picture.</source>
        <translation>%1：帧必须是图片。</translation>
    </message>
    <message>
        <source>This model takes no pictures here.</source>
        <translation>这个模型在这里不接受图片。</translation>
    </message>
    <message>
        <source>Not added — %1</source>
        <translation>未添加 — %1</translation>
    </message>
    <message>
        <source>local file</source>
        <translation>本地文件</translation>
    </message>
    <message>
        <source>Write a prompt to start.</source>
        <translation>先写一段提示词。</translation>
    </message>
    <message>
        <source>The clipboard holds text, not a picture, so nothing was pasted here. Copy an image or an image file (or an https:// link to one), then paste again.</source>
        <translation>剪贴板里是文字，不是图片，因此这里没有粘贴任何内容。请复制一张图片或图片文件（或指向图片的 https:// 链接），然后再粘贴。</translation>
    </message>
    <message>
        <source>Cost: unknown until the answer — %1 is billed by tokens and MiniMax publishes no tokens-per-image rule; the real cost is shown once it is reported.</source>
        <translation>费用：出结果前未知 —— %1 按词元用量计费，MiniMax 未公布每张图片的词元数；提供方报告后会显示实际费用。</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Area</source>
        <translation>面积</translation>
    </message>
</context>
<context>
    <name>DurationSlider</name>
    <message>
        <source>%1 s</source>
        <extracomment>A picture the domain&apos;s rules are asked &quot;what if&quot; with (it passes every image limit). The form&apos;s fields that take media, in the order the rules check them.</extracomment>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>Event</name>
    <message>
        <source>slot claimed, create about to be sent</source>
        <extracomment>The history&apos;s events in the designer&apos;s words (context ``Event``).</extracomment>
        <translation>已占用槽位，即将发送创建请求</translation>
    </message>
    <message>
        <source>create request sent</source>
        <translation>已发送创建请求</translation>
    </message>
    <message>
        <source>created at the provider</source>
        <translation>服务商已创建</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>outcome unknown</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>refused by the provider</source>
        <translation>被服务商拒绝</translation>
    </message>
    <message>
        <source>rate limited, waiting</source>
        <translation>触发限流，等待中</translation>
    </message>
    <message>
        <source>answer about another task, ignored</source>
        <translation>回答的是另一个任务，已忽略</translation>
    </message>
    <message>
        <source>conflict: other parameters refused</source>
        <translation>冲突：已拒绝不同参数</translation>
    </message>
    <message>
        <source>asked again: answered from the record</source>
        <translation>再次请求：按记录答复</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>已下载</translation>
    </message>
    <message>
        <source>media verified</source>
        <translation>媒体已校验</translation>
    </message>
    <message>
        <source>verification failed</source>
        <translation>校验失败</translation>
    </message>
    <message>
        <source>query failed</source>
        <translation>查询失败</translation>
    </message>
    <message>
        <source>download too slow, paused</source>
        <translation>下载太慢，已暂停</translation>
    </message>
    <message>
        <source>could not be saved on this computer (disk full?), will try again</source>
        <translation>无法保存到这台电脑（磁盘已满？），稍后重试</translation>
    </message>
    <message>
        <source>recovered</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>declared failed</source>
        <translation>已声明失败</translation>
    </message>
    <message>
        <source>exported</source>
        <translation>已导出</translation>
    </message>
    <message>
        <source>refused: daily quota used up</source>
        <translation>已拒绝：今日配额已用完</translation>
    </message>
    <message>
        <source>refused: daily budget would be exceeded</source>
        <translation>已拒绝：将超出今日预算</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>removed at the provider instead of cancelled</source>
        <translation>服务商删除了任务，而不是取消</translation>
    </message>
    <message>
        <source>input files sent</source>
        <translation>已发送输入文件</translation>
    </message>
    <message>
        <source>the provider&apos;s answer, kept safe, recorded</source>
        <translation>已写入先前保存的服务商答复</translation>
    </message>
    <message>
        <source>the provider&apos;s answer came late</source>
        <translation>服务商的答复来迟了</translation>
    </message>
    <message>
        <source>looked up at the provider</source>
        <translation>已在服务商处查找</translation>
    </message>
    <message>
        <source>other event</source>
        <translation>其他事件</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <extracomment>An event and its detail on one line (&quot;status: generating&quot;; Chinese puts a full-width colon).</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>a new slot was made from this one</source>
        <translation>由此槽位生成了新槽位</translation>
    </message>
    <message>
        <source>hidden from the browser (the record stays)</source>
        <translation>已从浏览中隐藏（记录仍保留）</translation>
    </message>
    <message>
        <source>shown in the browser again</source>
        <translation>已重新显示在浏览中</translation>
    </message>
    <message>
        <source>files deleted on this computer (the slot stays)</source>
        <translation>已删除这台电脑上的文件（槽位仍保留）</translation>
    </message>
    <message>
        <source>downloaded again</source>
        <translation>已重新下载</translation>
    </message>
</context>
<context>
    <name>FinishedView</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open the result on screen in its own app</source>
        <translation>用系统应用打开当前显示的结果</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Use as first frame of a new slot</source>
        <extracomment>The menu&apos;s words per role, for an image and for a video (its last frame).</extracomment>
        <translation>用作新槽位的首帧</translation>
    </message>
    <message>
        <source>Use as last frame of a new slot</source>
        <translation>用作新槽位的尾帧</translation>
    </message>
    <message>
        <source>Use as reference of a new slot</source>
        <translation>用作新槽位的参考</translation>
    </message>
    <message>
        <source>Continue: last frame of this video as first frame of a new slot</source>
        <translation>接续：把这段视频的最后一帧用作新槽位的首帧</translation>
    </message>
    <message>
        <source>Last frame of this video as reference of a new slot</source>
        <translation>把这段视频的最后一帧用作新槽位的参考</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Use in a new slot</source>
        <translation>用于新槽位</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>%1 image(s)</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>first frame</source>
        <translation>首帧</translation>
    </message>
    <message>
        <source>last frame</source>
        <translation>尾帧</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>基于%1</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图片</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>Edit this image (MiniMax-H3-Image)</source>
        <translation>编辑此图片（MiniMax-H3-Image）</translation>
    </message>
    <message>
        <source>Make 2K…</source>
        <translation>生成 2K…</translation>
    </message>
    <message>
        <source>Make 2K</source>
        <translation>生成 2K</translation>
    </message>
    <message>
        <source>Render this video again at 2K, as a new slot</source>
        <translation>以 2K 重新渲染此视频，作为新槽位</translation>
    </message>
    <message>
        <source>Use as soundtrack / reference audio of a new MiniMax-H3 slot</source>
        <translation>用作新 MiniMax-H3 槽位的配乐 / 参考音频</translation>
    </message>
    <message>
        <source>2K of %1</source>
        <translation>%1 的 2K 版本</translation>
    </message>
    <message>
        <source>Enhanced prompt</source>
        <translation>优化后的提示词</translation>
    </message>
    <message>
        <source>for %1</source>
        <translation>用于 %1</translation>
    </message>
    <message>
        <source>Written: %1</source>
        <translation>原提示词：%1</translation>
    </message>
</context>
<context>
    <name>FramePicker</name>
    <message>
        <source>drop</source>
        <extracomment>Shot-list files: dropped on the window, they open the import review.</extracomment>
        <translation>拖放</translation>
    </message>
    <message>
        <source>Drop or paste an image, or https://…</source>
        <translation>拖放或粘贴图片，或输入 https://…</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择……</translation>
    </message>
    <message>
        <source>Choose a file for %1</source>
        <translation>为%1选择文件</translation>
    </message>
    <message>
        <source>Clear %1</source>
        <translation>清除%1</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>picture (%1 KB)</source>
        <translation>图片（%1 KB）</translation>
    </message>
    <message>
        <source>%1 (picture, %2 KB)</source>
        <translation>%1（图片，%2 KB）</translation>
    </message>
    <message>
        <source>picture</source>
        <translation>图片</translation>
    </message>
</context>
<context>
    <name>GalleryPane</name>
    <message>
        <source>Cannot show this file</source>
        <translation>无法显示此文件</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Continue: last frame of this video as first frame</source>
        <translation>接续：把这段视频的最后一帧用作首帧</translation>
    </message>
    <message>
        <source>Last frame of this video as reference</source>
        <translation>把这段视频的最后一帧用作参考</translation>
    </message>
    <message>
        <source>RESULTS</source>
        <translation>成果</translation>
    </message>
    <message>
        <source>Show all projects</source>
        <translation>显示全部项目</translation>
    </message>
    <message>
        <source>Show the results of all projects</source>
        <translation>显示全部项目的成果</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>成果</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>全部项目</translation>
    </message>
    <message>
        <source>No project</source>
        <translation>无项目</translation>
    </message>
    <message>
        <source>Gathering your results…</source>
        <translation>正在汇集你的成果…</translation>
    </message>
    <message>
        <source>No results match these filters.
Clear the search or choose another state, kind or day.</source>
        <translation>没有符合这些筛选条件的成果。
请清除搜索，或换一个状态、类型或日期。</translation>
    </message>
    <message>
        <source>Nothing here yet.
Every image and video you create gathers here, newest first.</source>
        <translation>这里还没有内容。
你生成的每张图片和每段视频都会汇集在这里，最新的在前。</translation>
    </message>
    <message>
        <source>Open in viewer</source>
        <translation>在查看器中打开</translation>
    </message>
    <message>
        <source>Show slot</source>
        <translation>显示槽位</translation>
    </message>
    <message>
        <source>Compare the two selected (C)</source>
        <translation>对比选中的两项 (C)</translation>
    </message>
    <message>
        <source>Use as first frame</source>
        <extracomment>&quot;Use as …&quot; per kind of result: (role, words). A video gives its last frame (as the finished slot&apos;s results menu offers it).</extracomment>
        <translation>用作首帧</translation>
    </message>
    <message>
        <source>Use as last frame</source>
        <translation>用作尾帧</translation>
    </message>
    <message>
        <source>Use as reference</source>
        <translation>用作参考图</translation>
    </message>
    <message>
        <source>Edit this image (MiniMax-H3-Image)</source>
        <translation>编辑此图片（MiniMax-H3-Image）</translation>
    </message>
    <message>
        <source>Make 2K…</source>
        <translation>生成 2K…</translation>
    </message>
    <message>
        <source>Render this video again at 2K, as a new slot</source>
        <translation>以 2K 重新渲染此视频，作为新槽位</translation>
    </message>
    <message>
        <source>Thumbnail size</source>
        <translation>缩略图大小</translation>
    </message>
    <message>
        <source>Sound</source>
        <translation>声音</translation>
    </message>
    <message>
        <source>Use as soundtrack / reference audio of a MiniMax-H3 slot</source>
        <translation>用作 MiniMax-H3 槽位的配乐 / 参考音频</translation>
    </message>
</context>
<context>
    <name>LookupDialog</name>
    <message>
        <source>queued</source>
        <extracomment>The provider&apos;s status words (V2), said for people.</extracomment>
        <translation>排队中</translation>
    </message>
    <message>
        <source>generating</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Looking for this slot&apos;s task at %1</source>
        <translation>正在 %1 查找这个槽位的任务</translation>
    </message>
    <message>
        <source>1 matching task found at %1 — attach?</source>
        <translation>在 %1 找到 1 个匹配的任务 — 关联吗？</translation>
    </message>
    <message>
        <source>%1 matching tasks found at %2 — pick the one this slot made:</source>
        <translation>在 %2 找到 %1 个匹配的任务 — 请选出这个槽位创建的那个：</translation>
    </message>
    <message>
        <source>No matching task found at %1.</source>
        <translation>在 %1 没有找到匹配的任务。</translation>
    </message>
    <message>
        <source>Slate looked at the tasks made between %1 and %2 with this slot&apos;s model, duration, resolution and ratio. The prompt is not in the list, so check the time before you attach.</source>
        <translation>Slate 查看了 %1 到 %2 之间创建、模型、时长、分辨率和比例都与这个槽位相同的任务。列表里没有提示词，关联前请核对时间。</translation>
    </message>
    <message>
        <source>Slate looked at the tasks made between %1 and %2; none has this slot&apos;s parameters. If you find the task in the console, attach its id; otherwise declare the slot failed.</source>
        <translation>Slate 查看了 %1 到 %2 之间创建的任务，没有一个与这个槽位的参数相同。如果你在控制台找到了任务，请关联它的 ID；否则请把槽位标记为失败。</translation>
    </message>
    <message>
        <source>Task id</source>
        <translation>任务 ID</translation>
    </message>
    <message>
        <source>Made at</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Matching tasks</source>
        <translation>匹配的任务</translation>
    </message>
    <message>
        <source>Attach</source>
        <translation>关联</translation>
    </message>
    <message>
        <source>Attach by id or declare failed…</source>
        <translation>按 ID 关联或标记失败…</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>以后再说</translation>
    </message>
    <message>
        <source>1 matching task found at %1, but another of your slots could have made it too.</source>
        <translation>在 %1 找到 1 个匹配的任务，但你的另一个槽位也可能创建了它。</translation>
    </message>
    <message>
        <source>%1 matching tasks found at %2, and other slots of yours could have made them too.</source>
        <translation>在 %2 找到 %1 个匹配的任务，你的其他槽位也可能创建了它们。</translation>
    </message>
    <message>
        <source>%1 also waits for a task of this model, duration, resolution and ratio, made at about the same time, so Slate does not choose for you. Check the time and the prompt in the provider&apos;s console: if a task is this slot&apos;s, select it and attach it by its id; otherwise leave it for now.</source>
        <translation>%1 也在等待一个模型、时长、分辨率和画幅都相同、且在差不多同一时间创建的任务，因此 Slate 不替你选择。请在服务商控制台核对时间和提示词：如果某个任务属于此槽位，选中它并按任务 ID 关联；否则先不要处理。</translation>
    </message>
    <message>
        <source>Could also be</source>
        <translation>也可能属于</translation>
    </message>
    <message>
        <source>Attach by its id</source>
        <translation>按任务 ID 关联</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Give it a price…</source>
        <translation>给它定价…</translation>
    </message>
    <message>
        <source>Open Prices with %1 selected.</source>
        <translation>打开“价格”，并选中 %1。</translation>
    </message>
    <message>
        <source>Create</source>
        <extracomment>The buttons, left to right: action, object name, label, shortcut (said in the tooltip).</extracomment>
        <translation>创建</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Recover…</source>
        <translation>恢复……</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出……</translation>
    </message>
    <message>
        <source>New slot</source>
        <translation>新槽位</translation>
    </message>
    <message>
        <source>Cancel task</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>Edit as new slot</source>
        <translation>编辑为新槽位</translation>
    </message>
    <message>
        <source>Send this slot to the provider (once).</source>
        <translation>把这个槽位发送给服务商（只发一次）。</translation>
    </message>
    <message>
        <source>Ask the provider about this task now.</source>
        <translation>立即向服务商查询这个任务。</translation>
    </message>
    <message>
        <source>Attach a task id, download again, or declare failed. Never creates.</source>
        <translation>关联任务 ID、重新下载或声明失败。绝不会重新创建。</translation>
    </message>
    <message>
        <source>Copy the verified media to a folder.</source>
        <translation>把已校验的媒体复制到文件夹。</translation>
    </message>
    <message>
        <source>Start a new slot from these parameters (this slot stays as it is).</source>
        <translation>用这些参数开始一个新槽位（当前槽位保持不变）。</translation>
    </message>
    <message>
        <source>Ask the provider to drop this queued task; nothing is billed for it.</source>
        <translation>请服务商撤下这个排队中的任务；不会为它计费。</translation>
    </message>
    <message>
        <source>Cost: %1 as reported by the provider (estimated %2)</source>
        <translation>费用：服务商报告 %1（估算 %2）</translation>
    </message>
    <message>
        <source>Cost: %1 as reported by the provider</source>
        <translation>费用：服务商报告 %1</translation>
    </message>
    <message>
        <source>Cost: about %1 (estimate; the provider has not reported it yet)</source>
        <translation>费用：约 %1（估算；服务商尚未报告）</translation>
    </message>
    <message>
        <source>Cost: price unknown (not in the price table)</source>
        <translation>费用：价格未知（价格表中没有）</translation>
    </message>
    <message>
        <source>Not charged: the provider bills nothing for this outcome.</source>
        <translation>不计费：服务商不会为这个结果收费。</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Show the technical details</source>
        <translation>显示技术细节</translation>
    </message>
    <message>
        <source>Slot state</source>
        <translation>槽位状态</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Next slot</source>
        <translation>下一个槽位</translation>
    </message>
    <message>
        <source>Next result of the slot</source>
        <translation>下一个结果</translation>
    </message>
    <message>
        <source>Previous result of the slot</source>
        <translation>上一个结果</translation>
    </message>
    <message>
        <source>Previous slot</source>
        <translation>上一个槽位</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Spend</source>
        <translation>花费</translation>
    </message>
    <message>
        <source>Import shot list…</source>
        <translation>导入镜头表…</translation>
    </message>
    <message>
        <source>Scenes from a template…</source>
        <translation>用模板生成场景…</translation>
    </message>
    <message>
        <source>Gallery</source>
        <translation>图库</translation>
    </message>
    <message>
        <source>Looking for this slot&apos;s task at the provider…</source>
        <translation>正在服务商处查找这个槽位的任务…</translation>
    </message>
    <message>
        <source>The provider&apos;s task list did not answer: %1</source>
        <translation>服务商的任务列表没有响应：%1</translation>
    </message>
    <message>
        <source>the demo provider</source>
        <translation>演示服务商</translation>
    </message>
    <message>
        <source>template</source>
        <translation>模板</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Saved %1 scenes to %2</source>
        <translation>已将 %1 个场景保存到 %2</translation>
    </message>
    <message>
        <source>This slot&apos;s inputs are fixed. Start a new slot to use what you dropped.</source>
        <translation>这个槽位的输入已固定。如需使用拖入的内容，请新建槽位。</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>▦ Gallery</source>
        <extracomment>The form&apos;s settings a template gives every scene (shot-list columns). ``use_result_as``&apos;s default source: the slot on screen.</extracomment>
        <translation>▦ 图库</translation>
    </message>
    <message>
        <source>Every result of the selection, as a grid (Ctrl+G)</source>
        <translation>以网格显示所选范围的全部成果 (Ctrl+G)</translation>
    </message>
    <message>
        <source>last frame of %1</source>
        <translation>%1 的最后一帧</translation>
    </message>
    <message>
        <source>Store URL: not a database URL (sqlite:///path or postgresql://host/name).</source>
        <translation>存储 URL：不是数据库 URL（sqlite:///路径 或 postgresql://主机/库名）。</translation>
    </message>
    <message>
        <source>Settings not applied: %1</source>
        <translation>设置未应用：%1</translation>
    </message>
    <message>
        <source>Settings applied.</source>
        <translation>设置已应用。</translation>
    </message>
    <message>
        <source>Took %1 · last change %2</source>
        <translation>用时 %1 · 最后更新 %2</translation>
    </message>
    <message>
        <source>Last change %1</source>
        <translation>最后更新 %1</translation>
    </message>
    <message>
        <source>%1 · elapsed %2</source>
        <translation>%1 · 已用时 %2</translation>
    </message>
    <message>
        <source>next query in %1 s</source>
        <translation>%1 秒后再次查询</translation>
    </message>
    <message>
        <source>querying now</source>
        <translation>正在查询</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>发送中……</translation>
    </message>
    <message>
        <source>Applying settings…</source>
        <translation>正在应用设置……</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>1 video</source>
        <translation>1 个视频</translation>
    </message>
    <message>
        <source>Uses %1 of today&apos;s quota.</source>
        <translation>将占用今日配额：%1。</translation>
    </message>
    <message>
        <source>Asking the provider…</source>
        <translation>正在询问服务商……</translation>
    </message>
    <message>
        <source>Export to folder</source>
        <translation>导出到文件夹</translation>
    </message>
    <message>
        <source>Choose an image</source>
        <translation>选择图片</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.webp *.heic *.heif)</source>
        <translation>图片 (*.png *.jpg *.jpeg *.webp *.heic *.heif)</translation>
    </message>
    <message>
        <source>Choose a reference picture, video or sound</source>
        <translation>选择参考图片、视频或音频</translation>
    </message>
    <message>
        <source>Media (*.png *.jpg *.jpeg *.webp *.heic *.heif *.mp4 *.mov *.wav *.mp3)</source>
        <translation>媒体 (*.png *.jpg *.jpeg *.webp *.heic *.heif *.mp4 *.mov *.wav *.mp3)</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Quit Slate?</source>
        <translation>退出 Slate？</translation>
    </message>
    <message>
        <source>A create is being sent to the provider.</source>
        <translation>一个创建请求正在发送给服务商。</translation>
    </message>
    <message>
        <source>If you quit now, its slot will show as Unknown when Slate opens again. Nothing is paid twice: query or recover it then, and Slate finds the task if it was made.</source>
        <translation>如果现在退出，下次打开 Slate 时这个槽位会显示为“结果未知”。不会重复付费：届时查询或恢复它，若任务已创建，Slate 会找到它。</translation>
    </message>
    <message>
        <source>Quit anyway</source>
        <translation>仍然退出</translation>
    </message>
    <message>
        <source>Keep Slate open</source>
        <translation>保持 Slate 打开</translation>
    </message>
    <message>
        <source>%1, image %2</source>
        <translation>%1，第 %2 张图片</translation>
    </message>
    <message>
        <source>Database: not a database address (sqlite:///path or postgresql://host/name).</source>
        <translation>数据库：不是数据库地址（sqlite:///路径 或 postgresql://主机/库名）。</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图片</translation>
    </message>
    <message>
        <source>Asking MiniMax for the 2K version…</source>
        <translation>正在向 MiniMax 请求 2K 版本…</translation>
    </message>
    <message>
        <source>%1 image(s)</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>1 song</source>
        <translation>1 首歌曲</translation>
    </message>
    <message>
        <source>1 voice line</source>
        <translation>1 段语音</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Earlier prompts…</source>
        <translation>以前的提示词…</translation>
    </message>
</context>
<context>
    <name>Notifier</name>
    <message>
        <source>Done: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Outcome unknown: %1</source>
        <translation>结果未知：%1</translation>
    </message>
    <message>
        <source>The media are checked and saved.</source>
        <translation>媒体已校验并保存。</translation>
    </message>
    <message>
        <source>The slot failed.</source>
        <translation>这个槽位失败了。</translation>
    </message>
    <message>
        <source>No clear answer came back. Open the slot to look it up or recover it.</source>
        <translation>没有收到明确答复。请打开槽位进行查找或恢复。</translation>
    </message>
</context>
<context>
    <name>QueuePanel</name>
    <message>
        <source>Generating at the provider</source>
        <extracomment>The groups, in order: (key, words).</extracomment>
        <translation>服务商生成中</translation>
    </message>
    <message>
        <source>Queued at the provider</source>
        <translation>在服务商处排队</translation>
    </message>
    <message>
        <source>Waiting for the rate limit</source>
        <translation>等待限流解除</translation>
    </message>
    <message>
        <source>Being sent</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>下载中</translation>
    </message>
    <message>
        <source>Nothing is running.</source>
        <translation>没有正在进行的任务。</translation>
    </message>
    <message>
        <source>QUEUE</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>usually %1</source>
        <translation>通常 %1</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>还有 %1 个</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
</context>
<context>
    <name>RecoverDialog</name>
    <message>
        <source>Recover %1</source>
        <translation>恢复 %1</translation>
    </message>
    <message>
        <source>Recover never sends a new create. Choose what you know:</source>
        <translation>恢复绝不会发送新的创建请求。请选择你掌握的情况：</translation>
    </message>
    <message>
        <source>I found the task in the provider console: attach its task id</source>
        <translation>我在服务商控制台找到了任务：关联它的任务 ID</translation>
    </message>
    <message>
        <source>provider task id</source>
        <translation>服务商任务 ID</translation>
    </message>
    <message>
        <source>Provider task id</source>
        <translation>服务商任务 ID</translation>
    </message>
    <message>
        <source>Look the task up at the provider by its parameters</source>
        <translation>按参数在服务商处查找任务</translation>
    </message>
    <message>
        <source>Download the results again (fresh link, same task)</source>
        <translation>重新下载结果（新链接，同一任务）</translation>
    </message>
    <message>
        <source>Declare this task failed</source>
        <translation>声明该任务失败</translation>
    </message>
    <message>
        <source>Why? (required, kept in the slot&apos;s history)</source>
        <translation>原因？（必填，会记入槽位历史）</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>⚠ A charge may already exist at the provider: the create may have been made even though no answer came back. Declaring it failed does not refund anything.</source>
        <translation>⚠ 服务商处可能已经产生费用：即使没有收到答复，任务也可能已被创建。声明失败不会退款。</translation>
    </message>
    <message>
        <source>MiniMax cannot query image tasks</source>
        <translation>MiniMax 无法查询图片任务</translation>
    </message>
    <message>
        <source>Recover</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>A reason is required.</source>
        <translation>必须填写原因。</translation>
    </message>
    <message>
        <source>Paste the task id from the provider console.</source>
        <translation>请粘贴服务商控制台中的任务 ID。</translation>
    </message>
</context>
<context>
    <name>ReferenceList</name>
    <message>
        <source>Reference media</source>
        <translation>参考素材</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Add reference media</source>
        <translation>添加参考素材</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected reference</source>
        <translation>移除选中的参考素材</translation>
    </message>
    <message>
        <source>picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>sound</source>
        <translation>音频</translation>
    </message>
    <message>
        <source> — add the file again to use it</source>
        <translation> — 需要重新添加文件才能使用</translation>
    </message>
    <message>
        <source>%1 of %2 images · %3 of %4 videos (%5 of %6 s) · %7 of %8 audio (%9 of %6 s)</source>
        <translation>图片 %1/%2 · 视频 %3/%4（%5/%6 秒）· 音频 %7/%8（%9/%6 秒）</translation>
    </message>
</context>
<context>
    <name>RequestIdComposer</name>
    <message>
        <source>project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Next free</source>
        <translation>下一个空号</translation>
    </message>
    <message>
        <source>Use the next free scene number for this project and day</source>
        <translation>使用该项目当天下一个未占用的场景编号</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Scene</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>RequestId</source>
        <translation>槽位全名</translation>
    </message>
    <message>
        <source>This RequestId does not follow project, date and scene: edit it in the RequestId field.</source>
        <translation>这个槽位全名不是“项目、日期、场景”的格式：请直接在槽位全名栏中编辑。</translation>
    </message>
</context>
<context>
    <name>ResultPane</name>
    <message>
        <source>Result and history</source>
        <translation>结果与历史</translation>
    </message>
    <message>
        <source>RESULT</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>No verified media yet.</source>
        <translation>还没有已校验的媒体。</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Show the files&apos; details</source>
        <translation>显示文件详情</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>HISTORY</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>SOURCE</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Pick a slot on the left, or start a new one.</source>
        <translation>在左侧选择一个槽位，或新建一个。</translation>
    </message>
    <message>
        <source>No verified media: this slot failed.</source>
        <translation>没有已校验的媒体：这个槽位失败了。</translation>
    </message>
    <message>
        <source>Media appear here once they are downloaded and verified.</source>
        <translation>媒体下载并校验后会显示在这里。</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 image(s)</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>Nothing has happened in this slot yet.</source>
        <translation>这个槽位还没有任何记录。</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图片</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>%1: %2 (double-click to open)</source>
        <translation>%1：%2（双击打开）</translation>
    </message>
    <message>
        <source>Sound</source>
        <translation>声音</translation>
    </message>
</context>
<context>
    <name>ResultStage</name>
    <message>
        <source>This slot has no picture yet.</source>
        <translation>这个槽位还没有画面。</translation>
    </message>
    <message>
        <source>This file cannot be shown (missing or damaged).</source>
        <translation>无法显示此文件（文件缺失或已损坏）。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Prices…</source>
        <translation>价格…</translation>
    </message>
    <message>
        <source>What each create counts at, and your own prices for models without one.</source>
        <translation>每次创建按什么价格计算；也可以为没有价格的模型填写你自己的价格。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>MiniMax API key</source>
        <translation>MiniMax API 密钥</translation>
    </message>
    <message>
        <source>the stored key will be removed when you save</source>
        <translation>保存时将删除已存储的密钥</translation>
    </message>
    <message>
        <source>a key is stored in the keyring; type to replace it</source>
        <translation>密钥已保存在系统钥匙串中；输入新值即可替换</translation>
    </message>
    <message>
        <source>the key comes from MINIMAX_API_KEY</source>
        <translation>密钥来自环境变量 MINIMAX_API_KEY</translation>
    </message>
    <message>
        <source>no key yet: the demo provider is used</source>
        <translation>尚无密钥：正在使用演示服务商</translation>
    </message>
    <message>
        <source>Global (api.minimax.io)</source>
        <translation>国际（api.minimax.io）</translation>
    </message>
    <message>
        <source>Remove stored key</source>
        <translation>删除已存储的密钥</translation>
    </message>
    <message>
        <source>Delete the key from the system keyring when you save (Slate then uses the demo provider).</source>
        <translation>保存时从系统钥匙串中删除密钥（之后 Slate 使用演示服务商）。</translation>
    </message>
    <message>
        <source>China (api.minimaxi.com)</source>
        <translation>中国（api.minimaxi.com）</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>不设预算</translation>
    </message>
    <message>
        <source>The most you want to spend per day, in the price table&apos;s currency (e.g. 5.00). A create that would go over it is refused before anything is sent.</source>
        <translation>每天最多愿意花费的金额，使用价格表的币种（例如 5.00）。会超出预算的创建在发送前就会被拒绝。</translation>
    </message>
    <message>
        <source>provider default</source>
        <translation>服务商默认</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择……</translation>
    </message>
    <message>
        <source>default: SQLite in the data folder</source>
        <translation>默认：数据文件夹中的 SQLite</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>Team (tenant)</source>
        <translation>团队（租户）</translation>
    </message>
    <message>
        <source>Designer (user)</source>
        <translation>设计师（用户）</translation>
    </message>
    <message>
        <source>Videos per day</source>
        <translation>每日视频数</translation>
    </message>
    <message>
        <source>Images per day</source>
        <translation>每日图片数</translation>
    </message>
    <message>
        <source>Daily budget</source>
        <translation>每日预算</translation>
    </message>
    <message>
        <source>Query every</source>
        <translation>查询间隔</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>Store URL</source>
        <translation>存储 URL</translation>
    </message>
    <message>
        <source>Tell me when a slot I started is done, failed or unknown</source>
        <translation>我发起的槽位完成、失败或结果未知时通知我</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>New slots start as</source>
        <translation>新槽位默认为</translation>
    </message>
    <message>
        <source>New slots: kind</source>
        <translation>新槽位：类型</translation>
    </message>
    <message>
        <source>New slots: model</source>
        <translation>新槽位：模型</translation>
    </message>
    <message>
        <source>New slots: duration</source>
        <translation>新槽位：时长</translation>
    </message>
    <message>
        <source>New slots: resolution</source>
        <translation>新槽位：分辨率</translation>
    </message>
    <message>
        <source>New slots: aspect ratio</source>
        <translation>新槽位：宽高比</translation>
    </message>
    <message>
        <source>Team</source>
        <translation>团队</translation>
    </message>
    <message>
        <source>Designer</source>
        <translation>设计师</translation>
    </message>
    <message>
        <source>Query interval</source>
        <translation>查询间隔</translation>
    </message>
    <message>
        <source>Set for this run by %1 or a command-line option.</source>
        <translation>本次运行由 %1 或命令行选项设定。</translation>
    </message>
    <message>
        <source>The key is kept in the system keyring and never shown again. Changes apply at once; running tasks continue.</source>
        <translation>密钥保存在系统钥匙串中，不会再次显示。修改立即生效；进行中的任务会继续。</translation>
    </message>
    <message>
        <source>Keep stored key</source>
        <translation>保留已存储的密钥</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
</context>
<context>
    <name>ShotList</name>
    <message>
        <source>new — will be created</source>
        <extracomment>What the dry run predicts for a row, in a designer&apos;s words.</extracomment>
        <translation>新的 — 将会创建</translation>
    </message>
    <message>
        <source>already made — nothing sent</source>
        <translation>已创建过 — 不会发送</translation>
    </message>
    <message>
        <source>conflict — exists with other settings</source>
        <translation>冲突 — 已存在且参数不同</translation>
    </message>
    <message>
        <source>can&apos;t be made</source>
        <translation>无法创建</translation>
    </message>
    <message>
        <source>over today&apos;s quota</source>
        <translation>超出今日配额</translation>
    </message>
    <message>
        <source>over today&apos;s budget</source>
        <translation>超出今日预算</translation>
    </message>
    <message>
        <source>outcome unknown — recover it first</source>
        <translation>结果未知 — 请先恢复</translation>
    </message>
    <message>
        <source>refused by the provider</source>
        <translation>被服务商拒绝</translation>
    </message>
    <message>
        <source>created</source>
        <extracomment>What a run answered for a row.</extracomment>
        <translation>已创建</translation>
    </message>
    <message>
        <source>already made</source>
        <translation>已创建过</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>What happens</source>
        <translation>将会发生</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>price unknown</source>
        <translation>价格未知</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <source>video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>music</source>
        <translation>音乐</translation>
    </message>
    <message>
        <source>voice line</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>designed voice</source>
        <translation>设计的声音</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>this slot exists with another %1; nothing is sent</source>
        <translation>这个槽位已存在，但 %1 不同；不会发送</translation>
    </message>
    <message>
        <source>Import shot list</source>
        <translation>导入镜头表</translation>
    </message>
    <message>
        <source>Shot lists (*.csv *.yaml *.yml)</source>
        <translation>镜头表 (*.csv *.yaml *.yml)</translation>
    </message>
    <message>
        <source>Save as shot list</source>
        <translation>另存为镜头表</translation>
    </message>
    <message>
        <source>Prompt: %1</source>
        <translation>提示词：%1</translation>
    </message>
    <message>
        <source>same settings as %1</source>
        <translation>与 %1 设置相同</translation>
    </message>
    <message>
        <source>%1 already has exactly these settings (%2); creating this row pays again</source>
        <translation>%1 已经用了完全相同的设置（%2）；创建这一行会再付一次费</translation>
    </message>
    <message>
        <source>row %1 (%2) has exactly these settings; creating both pays twice</source>
        <translation>第 %1 行（%2）的设置完全相同；两行都创建会付两次费</translation>
    </message>
    <message>
        <source>Same settings as other slots</source>
        <translation>与其他槽位设置相同</translation>
    </message>
    <message>
        <source>These rows have exactly another slot&apos;s settings: %1.</source>
        <translation>以下各行与另一个槽位的设置完全相同：%1。</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 与 %2 相同</translation>
    </message>
    <message>
        <source>Creating them makes and pays for each again — %1.</source>
        <translation>创建它们会逐一重新生成并再次付费 — %1。</translation>
    </message>
    <message>
        <source>Create them too</source>
        <translation>也创建它们</translation>
    </message>
    <message>
        <source>Only the other %1 new</source>
        <translation>只创建其余 %1 个新槽位</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>ShotListDialog</name>
    <message>
        <source>Shot list: %1</source>
        <translation>镜头表：%1</translation>
    </message>
    <message>
        <source>Shot list</source>
        <translation>镜头表</translation>
    </message>
    <message>
        <source>Checking every row (nothing is sent)…</source>
        <translation>正在检查每一行（不会发送任何请求）…</translation>
    </message>
    <message>
        <source>Rows of the shot list</source>
        <translation>镜头表的各行</translation>
    </message>
    <message>
        <source>Create all</source>
        <translation>全部创建</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>This shot list cannot be read: %1</source>
        <translation>无法读取这个镜头表：%1</translation>
    </message>
    <message>
        <source>%1 rows: %2 new, %3 already made, %4 conflicts, %5 can&apos;t be made.</source>
        <translation>共 %1 行：%2 行新建，%3 行已创建过，%4 行冲突，%5 行无法创建。</translation>
    </message>
    <message>
        <source>%1 rows: %2 new, %6 with another slot&apos;s settings, %3 already made, %4 conflicts, %5 can&apos;t be made.</source>
        <translation>共 %1 行：%2 行新建，%6 行与另一个槽位设置相同，%3 行已创建过，%4 行冲突，%5 行无法创建。</translation>
    </message>
    <message>
        <source>Creating the new rows costs %1.</source>
        <translation>创建新行的费用：%1。</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Create %1 new</source>
        <translation>创建 %1 个新槽位</translation>
    </message>
    <message>
        <source>%1 of %2 %3s used</source>
        <translation>%3 已用 %1/%2</translation>
    </message>
    <message>
        <source>No daily budget is set.</source>
        <translation>未设置每日预算。</translation>
    </message>
    <message>
        <source>Budget left today after these: %1 of %2.</source>
        <translation>创建后今日剩余预算：%1（共 %2）。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Quota after these: %1.</source>
        <translation>创建后的配额：%1。</translation>
    </message>
    <message>
        <source>Creating the new rows…</source>
        <translation>正在创建新行…</translation>
    </message>
    <message>
        <source>The shot list was not run: %1</source>
        <translation>镜头表没有运行：%1</translation>
    </message>
    <message>
        <source>%1 slots created; they continue in the slot list.</source>
        <translation>已创建 %1 个槽位；它们会在槽位列表中继续进行。</translation>
    </message>
    <message>
        <source>%1 of %2 videos used</source>
        <translation>已用视频 %1 / %2</translation>
    </message>
    <message>
        <source>%1 of %2 images used</source>
        <translation>已用图片 %1 / %2</translation>
    </message>
</context>
<context>
    <name>SlotBrowser</name>
    <message>
        <source>SLOTS</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>Search slots and prompts…</source>
        <translation>搜索槽位和提示词……</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>清除搜索</translation>
    </message>
    <message>
        <source>Search slots</source>
        <translation>搜索槽位</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>Needs attention</source>
        <translation>需要处理</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>Videos</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Any day</source>
        <translation>任意日期</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>State filter</source>
        <translation>状态筛选</translation>
    </message>
    <message>
        <source>Kind filter</source>
        <translation>类型筛选</translation>
    </message>
    <message>
        <source>Date filter</source>
        <translation>日期筛选</translation>
    </message>
    <message>
        <source>Slots</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>No slot matches these filters.</source>
        <extracomment>Below this width the tree shows the slot and its state only (kind and age come back when the pane is wider): a slot&apos;s name is never cut to &quot;sc…&quot;.</extracomment>
        <translation>没有符合筛选条件的槽位。</translation>
    </message>
    <message>
        <source>Show hidden</source>
        <translation>显示已隐藏</translation>
    </message>
    <message>
        <source>Also the slots hidden from the browser</source>
        <translation>同时显示在浏览器中隐藏的槽位</translation>
    </message>
    <message>
        <source>Hide slot</source>
        <translation>隐藏槽位</translation>
    </message>
</context>
<context>
    <name>SlotModel</name>
    <message>
        <source>Slot</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Kind · model</source>
        <translation>类型 · 模型</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Other slots</source>
        <translation>其他槽位</translation>
    </message>
    <message>
        <source>now</source>
        <extracomment>Words translated at run time through ``_tr``, listed here so lupdate finds them.</extracomment>
        <translation>刚刚</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Music</source>
        <translation>音乐</translation>
    </message>
    <message>
        <source>Voice-over</source>
        <translation>配音</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
</context>
<context>
    <name>SlotPane</name>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Show or hide the slot&apos;s history and its files&apos; details beside the result</source>
        <translation>在结果旁显示或隐藏槽位的历史和文件详情</translation>
    </message>
    <message>
        <source>History panel</source>
        <translation>历史面板</translation>
    </message>
    <message>
        <source>This slot&apos;s parameters are fixed. Use New slot to change them.</source>
        <extracomment>Outcomes said in the message line only (the slot on screen stays as it is).</extracomment>
        <translation>这个槽位的参数已固定。如需修改，请使用“新槽位”。</translation>
    </message>
    <message>
        <source>Asking the provider…</source>
        <translation>正在询问服务商……</translation>
    </message>
    <message>
        <source>Asking the provider to cancel…</source>
        <translation>正在请服务商取消…</translation>
    </message>
    <message>
        <source>Exported %1 files.</source>
        <translation>已导出 %1 个文件。</translation>
    </message>
    <message>
        <source>(unnamed slot)</source>
        <translation>（未命名槽位）</translation>
    </message>
    <message>
        <source>This RequestId is already used (%1). &lt;a href=&quot;%2&quot;&gt;Open it&lt;/a&gt; — creating it with other parameters will be refused.</source>
        <translation>这个槽位全名已被使用（%1）。&lt;a href=&quot;%2&quot;&gt;打开它&lt;/a&gt;——用其他参数创建会被拒绝。</translation>
    </message>
    <message>
        <source>Exported 1 file.</source>
        <translation>已导出 1 个文件。</translation>
    </message>
    <message>
        <source>Exported %1 file(s).</source>
        <translation>已导出 %1 个文件。</translation>
    </message>
    <message>
        <source>MiniMax-H3 takes reference audio of at most %1 s: the first %1 s of %2 are used.</source>
        <translation>MiniMax-H3 的参考音频最长 %1 秒：已使用 %2 的前 %1 秒。</translation>
    </message>
    <message>
        <source>%1 (its first %2 s)</source>
        <translation>%1（前 %2 秒）</translation>
    </message>
</context>
<context>
    <name>SpendDialog</name>
    <message>
        <source>Spend</source>
        <translation>花费</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>This week</source>
        <translation>本周</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>This week by day</source>
        <translation>本周按天</translation>
    </message>
    <message>
        <source>By project</source>
        <translation>按项目</translation>
    </message>
    <message>
        <source>By model</source>
        <translation>按模型</translation>
    </message>
    <message>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Slots</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>Estimated</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>Reported</source>
        <translation>已报告</translation>
    </message>
    <message>
        <source>Light bars: estimated · dark bars: reported by the provider. A slot whose price is not in the price table counts as unknown, never as $0.</source>
        <translation>浅色柱：估算 · 深色柱：服务商报告。价格表中没有价格的槽位计为未知，绝不计为 $0。</translation>
    </message>
    <message>
        <source>not available</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>%1 slots · reported %2 (%3 slots)</source>
        <translation>%1 个槽位 · 已报告 %2（%3 个槽位）</translation>
    </message>
    <message>
        <source>%1 + %2 unknown</source>
        <translation>%1 + %2 个未知</translation>
    </message>
    <message>
        <source>unknown (%1 without a price)</source>
        <translation>未知（%1 个没有价格）</translation>
    </message>
    <message>
        <source>(no project)</source>
        <translation>（无项目）</translation>
    </message>
</context>
<context>
    <name>State</name>
    <message>
        <source>Empty slot</source>
        <translation>空槽位</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>Queueing</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>下载中</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>StatusPane</name>
    <message>
        <source>Today: %1 · %2</source>
        <translation>今日：%1 · %2</translation>
    </message>
    <message>
        <source>videos</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>images</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 个进行中</translation>
    </message>
    <message>
        <source>⚠ Provider not answering: %1 tasks retrying</source>
        <translation>⚠ 服务商无响应：%1 个任务正在重试</translation>
    </message>
    <message>
        <source>Connection OK</source>
        <translation>连接正常</translation>
    </message>
    <message>
        <source>DEMO</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>Demo provider: nothing is billed and media are made on this computer. Set an API key in Settings to use MiniMax.</source>
        <translation>演示服务商：不会计费，媒体在本机生成。在“设置”中填写 API 密钥即可使用 MiniMax。</translation>
    </message>
    <message>
        <source>Real provider: every create is billed.</source>
        <translation>真实服务商：每次创建都会计费。</translation>
    </message>
    <message>
        <source>Designer · team</source>
        <translation>设计师 · 团队</translation>
    </message>
    <message>
        <source>⚠ 1 warning</source>
        <translation>⚠ 1 条提醒</translation>
    </message>
    <message>
        <source>⚠ %1 warnings</source>
        <translation>⚠ %1 条提醒</translation>
    </message>
    <message>
        <source>This computer has no system keyring, so Slate keeps its own key in a file in the data folder that only you can read. Nothing to do.</source>
        <translation>这台电脑没有系统钥匙串，所以 Slate 把自己的密钥保存在数据文件夹里一个只有你能读取的文件中。无需任何操作。</translation>
    </message>
    <message>
        <source>Other people on this computer can see the names of the files in your data folder (not their contents). Run “slate doctor” to see how to close it.</source>
        <translation>这台电脑上的其他人能看到你数据文件夹里的文件名（看不到内容）。运行“slate doctor”查看如何关闭。</translation>
    </message>
    <message>
        <source>Slate started with a warning: see “slate doctor”.</source>
        <translation>Slate 启动时有一条警告：请查看“slate doctor”。</translation>
    </message>
    <message>
        <source>⚠ Provider not answering: 1 task retrying</source>
        <translation>⚠ 服务商无响应：1 个任务正在重试</translation>
    </message>
    <message>
        <source>⚠ Provider not answering: %1 task(s) retrying</source>
        <translation>⚠ 服务商无响应：%1 个任务正在重试</translation>
    </message>
</context>
<context>
    <name>TemplateDialog</name>
    <message>
        <source>Scenes from a template</source>
        <translation>用模板生成场景</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>First scene</source>
        <translation>起始场景</translation>
    </message>
    <message>
        <source>Last scene</source>
        <translation>结束场景</translation>
    </message>
    <message>
        <source>Prompt for every scene</source>
        <translation>每个场景的提示词</translation>
    </message>
    <message>
        <source>The prompt every scene starts from</source>
        <translation>每个场景都从这个提示词开始</translation>
    </message>
    <message>
        <source>Scene</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>How</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>Per-scene edits</source>
        <translation>逐场景修改</translation>
    </message>
    <message>
        <source>Scene to edit</source>
        <translation>要修改的场景</translation>
    </message>
    <message>
        <source>add to the prompt</source>
        <translation>追加到提示词</translation>
    </message>
    <message>
        <source>replace the prompt</source>
        <translation>替换提示词</translation>
    </message>
    <message>
        <source>How the scene changes</source>
        <translation>场景如何修改</translation>
    </message>
    <message>
        <source>Scene edit</source>
        <translation>场景修改</translation>
    </message>
    <message>
        <source>Add edit</source>
        <translation>添加修改</translation>
    </message>
    <message>
        <source>Scenes</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>检查…</translation>
    </message>
    <message>
        <source>Save as shot list…</source>
        <translation>另存为镜头表…</translation>
    </message>
    <message>
        <source>Every scene: %1 · %2 (from the form)</source>
        <translation>每个场景：%1 · %2（来自表单）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>prompt expansion: %1</source>
        <translation>提示词扩写：%1</translation>
    </message>
</context>
<context>
    <name>TopBar</name>
    <message>
        <source>every generation paid once</source>
        <translation>每次生成只付一次费</translation>
    </message>
    <message>
        <source>+ New slot</source>
        <translation>+ 新槽位</translation>
    </message>
    <message>
        <source>Start a blank slot (Ctrl+N)</source>
        <translation>新建空白槽位（Ctrl+N）</translation>
    </message>
    <message>
        <source>⚙ Settings</source>
        <translation>⚙ 设置</translation>
    </message>
    <message>
        <source>API key, region, team, quotas (Ctrl+,)</source>
        <translation>API 密钥、区域、团队、配额（Ctrl+,）</translation>
    </message>
    <message>
        <source>Spend</source>
        <translation>花费</translation>
    </message>
    <message>
        <source>What your slots cost: today, this week, per project (Ctrl+Shift+S)</source>
        <translation>你的槽位花了多少：今天、本周、按项目（Ctrl+Shift+S）</translation>
    </message>
    <message>
        <source>Shot list</source>
        <translation>镜头表</translation>
    </message>
    <message>
        <source>Import a shot list, or make scenes from a template</source>
        <translation>导入镜头表，或用模板生成场景</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>What is running, queued or waiting (Ctrl+Shift+Q)</source>
        <translation>正在进行、排队或等待中的任务（Ctrl+Shift+Q）</translation>
    </message>
    <message>
        <source>New slot</source>
        <translation>新槽位</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
</context>
<context>
    <name>VideoPlayer</name>
    <message>
        <source>▶ Play</source>
        <translation>▶ 播放</translation>
    </message>
    <message>
        <source>Play or pause</source>
        <translation>播放或暂停</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>播放位置</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>音量</translation>
    </message>
    <message>
        <source>Video playback is not available here: %1</source>
        <translation>此处无法播放视频：%1</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 暂停</translation>
    </message>
</context>
<context>
    <name>VideoView</name>
    <message>
        <source>▶ Play</source>
        <translation>▶ 播放</translation>
    </message>
    <message>
        <source>Play video</source>
        <translation>播放视频</translation>
    </message>
    <message>
        <source>Video playback is not available here: %1</source>
        <translation>此处无法播放视频：%1</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 暂停</translation>
    </message>
</context>
<context>
    <name>Viewer</name>
    <message>
        <source>Viewer</source>
        <translation>查看器</translation>
    </message>
    <message>
        <source>Previous result</source>
        <translation>上一个成果</translation>
    </message>
    <message>
        <source>Previous result (←)</source>
        <translation>上一个成果 (←)</translation>
    </message>
    <message>
        <source>Next result</source>
        <translation>下一个成果</translation>
    </message>
    <message>
        <source>Next result (→)</source>
        <translation>下一个成果 (→)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Fit the window (F)</source>
        <translation>适应窗口 (F)</translation>
    </message>
    <message>
        <source>Actual size</source>
        <translation>实际大小</translation>
    </message>
    <message>
        <source>Actual size, one image pixel per screen pixel (1)</source>
        <translation>实际大小，一个图像像素对应一个屏幕像素 (1)</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>与…对比</translation>
    </message>
    <message>
        <source>Show this result beside another, side by side</source>
        <translation>把这个成果与另一个并排显示</translation>
    </message>
    <message>
        <source>Show slot</source>
        <translation>显示槽位</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Close the viewer (Esc)</source>
        <translation>关闭查看器 (Esc)</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>Use in a new slot</source>
        <translation>用于新槽位</translation>
    </message>
    <message>
        <source>Feed a new slot with this result: as its first frame, last frame or reference</source>
        <translation>把这个结果用于新槽位：作为首帧、尾帧或参考</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>RequestId</source>
        <translation>槽位全名</translation>
    </message>
    <message>
        <source>No other result to compare with</source>
        <translation>没有可对比的其他成果</translation>
    </message>
    <message>
        <source>Drag out</source>
        <translation>拖出</translation>
    </message>
    <message>
        <source>Drag this result into another app as a file</source>
        <translation>将此结果作为文件拖到其他应用</translation>
    </message>
    <message>
        <source>Fit the window (Ctrl+0)</source>
        <translation>适应窗口 (Ctrl+0)</translation>
    </message>
    <message>
        <source>Actual size, one image pixel per screen pixel (Ctrl+1)</source>
        <translation>实际大小，一个图像像素对应一个屏幕像素 (Ctrl+1)</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Welcome to Slate</source>
        <translation>欢迎使用 Slate</translation>
    </message>
    <message>
        <source>A slot is one piece of work with a stable name, such as article:20260816:tide-eye:scene-02. Slate sends each slot to the provider once, keeps its history, and never pays twice for it.</source>
        <translation>槽位是一项有固定名称的工作，例如 article:20260816:tide-eye:scene-02。Slate 对每个槽位只向服务商发送一次，保留完整历史，绝不重复付费。</translation>
    </message>
    <message>
        <source>Create your first slot</source>
        <translation>创建第一个槽位</translation>
    </message>
    <message>
        <source>The demo provider is active until you set an API key in Settings: try everything, nothing is billed.</source>
        <translation>在“设置”中填写 API 密钥之前，使用的是演示服务商：可以随意尝试，不会计费。</translation>
    </message>
</context>
<context>
    <name>WhyNot</name>
    <message>
        <source>This slot already has a task. Create again only after a definitive refusal; use New slot for other parameters.</source>
        <translation>这个槽位已有任务。只有在被明确拒绝后才能再次创建；其他参数请使用“新槽位”。</translation>
    </message>
    <message>
        <source>There is no provider task to ask about in this state.</source>
        <translation>当前状态下没有可查询的服务商任务。</translation>
    </message>
    <message>
        <source>Recover is for unknown tasks, and for failed tasks with results left.</source>
        <translation>恢复用于结果未知的任务，以及仍有结果可取的失败任务。</translation>
    </message>
    <message>
        <source>Only verified media can be exported.</source>
        <translation>只有已校验的媒体才能导出。</translation>
    </message>
    <message>
        <source>Only verified media can be opened.</source>
        <translation>只有已校验的媒体才能打开。</translation>
    </message>
    <message>
        <source>Finish or recover this slot first.</source>
        <translation>请先完成或恢复这个槽位。</translation>
    </message>
    <message>
        <source>Only a task the provider still has queued can be cancelled, and only where the provider can cancel (MiniMax-H3).</source>
        <translation>只有仍在服务商队列中排队的任务才能取消，且仅限支持取消的服务商（MiniMax-H3）。</translation>
    </message>
    <message>
        <source>The create&apos;s answer never arrived, so there is no provider task to ask about. Use Recover: attach the task id from the provider&apos;s console, or declare the slot failed.</source>
        <translation>创建请求的应答始终没有到达，因此没有可查询的服务商任务。请使用“恢复”：关联你在服务商控制台找到的任务 ID，或将该槽位声明为失败。</translation>
    </message>
    <message>
        <source>The provider cannot look up image tasks. Use Recover to declare the slot failed.</source>
        <translation>服务商无法查询图片任务。请使用“恢复”将该槽位声明为失败。</translation>
    </message>
    <message>
        <source>Nothing to create yet: start a new slot.</source>
        <translation>还没有可创建的内容：请新建一个槽位。</translation>
    </message>
    <message>
        <source>Loading the slot…</source>
        <translation>正在载入槽位……</translation>
    </message>
    <message>
        <source>Recovering…</source>
        <translation>正在恢复……</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出……</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>The task of this slot may still be made and billed at the provider. Recover it, or declare it failed, before starting a new slot from it.</source>
        <translation>这个槽位的任务可能仍会在服务商处生成并计费。请先恢复它，或将其声明为失败，再以它为基础新建槽位。</translation>
    </message>
    <message>
        <source>The create&apos;s answer never arrived, so there is no provider task to ask about. Use Recover: look the task up at the provider, attach its task id from the provider&apos;s console, or declare the slot failed.</source>
        <translation>创建请求的应答始终没有到达，因此没有可查询的服务商任务。请使用“恢复”：在服务商处查找该任务、关联你在服务商控制台找到的任务 ID，或将该槽位声明为失败。</translation>
    </message>
    <message>
        <source>The sound&apos;s answer was lost and MiniMax keeps no record of it to look up. Use Recover to declare the slot failed.</source>
        <translation>声音的回复丢失了，MiniMax 也没有可供查找的记录。请用“恢复”将此槽位标记为失败。</translation>
    </message>
    <message>
        <source>A designed voice has no task to ask about. Use Recover: Slate looks the voice up in your MiniMax voices by the id this slot sent, or you declare the slot failed.</source>
        <translation>设计的音色没有可查询的任务。请用“恢复”：Slate 会按此槽位发送的音色 ID 在你的 MiniMax 音色中查找它；或者由你将此槽位标记为失败。</translation>
    </message>
    <message>
        <source>The media of this slot were deleted from this computer: nothing to export. Download them again first where the provider still has them.</source>
        <translation>此槽位的媒体已从这台电脑删除：没有可导出的内容。若服务商仍保留，请先重新下载。</translation>
    </message>
</context>
<context>
    <name>Words</name>
    <message>
        <source>MiniMax follows the shape of {frame} and ignores the ratio: this video will be {width}×{height}, not {ratio}.</source>
        <translation>MiniMax 会按{frame}的形状生成，不使用所选的画面比例：这个视频将是 {width}×{height}，而不是 {ratio}。</translation>
    </message>
    <message>
        <source>MiniMax follows the shape of {frame} and ignores the ratio: this video will not be {ratio} unless the picture is.</source>
        <translation>MiniMax 会按{frame}的形状生成，不使用所选的画面比例：除非图片本身是 {ratio}，否则视频不会是 {ratio}。</translation>
    </message>
    <message>
        <source>the first frame</source>
        <translation>首帧</translation>
    </message>
    <message>
        <source>the last frame</source>
        <translation>尾帧</translation>
    </message>
    <message>
        <source>The provider answered with more results than were asked for: a wrong answer, so Slate kept none of them. It may have made and billed this create; MiniMax keeps no record of this kind of create that Slate could look up: declare the slot failed when you are sure.</source>
        <translation>服务商返回的结果比请求的多：这是错误的回答，Slate 一个也没有保留。这次创建可能已生成并计费；MiniMax 不保留这类创建的记录，Slate 无法查找：确认后请将该槽位标记为失败。</translation>
    </message>
    <message>
        <source>Choose a voice, or type a voice id.</source>
        <translation>请选择一个语音，或输入语音 ID。</translation>
    </message>
    <message>
        <source>A voice id holds an invisible character ({bad}): type it again without it.</source>
        <translation>语音 ID 含有不可见字符（{bad}）：请去掉它后重新输入。</translation>
    </message>
    <message>
        <source>Only a MiniMax-H3 video can be made 2K.</source>
        <translation>只有 MiniMax-H3 视频可以生成 2K 版本。</translation>
    </message>
    <message>
        <source>This is already the 2K version.</source>
        <translation>这已经是 2K 版本。</translation>
    </message>
    <message>
        <source>Only a 768P video can be made 2K; this one is {value}.</source>
        <translation>只有 768P 视频可以生成 2K 版本；这段是 {value}。</translation>
    </message>
    <message>
        <source>Only a finished video can be made 2K.</source>
        <translation>只有已完成的视频可以生成 2K 版本。</translation>
    </message>
    <message>
        <source>MiniMax keeps a video for {days} days only; this one is older, so it can no longer be made 2K.</source>
        <translation>MiniMax 只保留视频 {days} 天；这段视频已超过期限，无法再生成 2K 版本。</translation>
    </message>
    <message>
        <source>Enhance prompt works on MiniMax-H3 videos only.</source>
        <translation>“优化提示词”仅适用于 MiniMax-H3 视频。</translation>
    </message>
    <message>
        <source>Write a prompt first, then enhance it.</source>
        <translation>先写一段提示词，再进行优化。</translation>
    </message>
    <message>
        <source> · today %1 of the %2 budget (%3 without a price yet, left out)</source>
        <translation> · 今日已用 %1，预算 %2（另有 %3 个尚无价格，未计入）</translation>
    </message>
    <message>
        <source>Create is off: this draft (about %2) would go over today&apos;s budget — %1 of %3 is used, %4 is left. The budget can be changed in Settings.</source>
        <translation>无法创建：这个草稿（约 %2）会超出今日预算——已用 %1，预算 %3，剩余 %4。可以在“设置”中修改预算。</translation>
    </message>
    <message>
        <source>Create is off: %6 has no price yet, and with a daily budget of %3 Slate creates only what it can price. Give it a price (Settings → Prices, or slate prices set), or change the budget. Everything else can still be created.</source>
        <translation>无法创建：%6 还没有价格；设置了每日预算 %3 时，Slate 只创建能算出价格的内容。请给它定一个价格（“设置”→“价格”，或 slate prices set），或修改预算。其他内容仍可创建。</translation>
    </message>
    <message>
        <source>this model</source>
        <translation>这个模型</translation>
    </message>
    <message>
        <source>Create is off: today&apos;s budget of %3 cannot be checked, because slots of unknown price were made today (%5). The budget can be changed in Settings.</source>
        <translation>无法创建：今天有价格未知的槽位（%5 个），因此无法核对今日预算 %3。可以在“设置”中修改预算。</translation>
    </message>
    <message>
        <source>The provider&apos;s safety check refused the prompt or an input image. Reword the prompt or change the image, then try again in a new slot.</source>
        <translation>服务商的内容安全审核拒绝了提示词或输入图片。请改写提示词或更换图片，然后在新槽位中重试。</translation>
    </message>
    <message>
        <source>The provider&apos;s safety check stopped the generated result, so nothing was delivered. Try a different prompt in a new slot.</source>
        <translation>服务商的内容安全审核拦截了生成结果，因此没有交付任何内容。请在新槽位中换一个提示词重试。</translation>
    </message>
    <message>
        <source>The MiniMax account has no balance left. Top it up in the MiniMax console, then create again.</source>
        <translation>MiniMax 账户余额不足。请在 MiniMax 控制台充值后再创建。</translation>
    </message>
    <message>
        <source>The provider is receiving too many requests right now (rate limit). Nothing was made; try again in a minute.</source>
        <translation>服务商当前请求过多（限流）。没有生成任何内容；请一分钟后重试。</translation>
    </message>
    <message>
        <source>The API key was refused. A key works only in its own region (international or mainland China): check the key and the region in Settings.</source>
        <translation>API 密钥被拒绝。密钥只能在其所属区域（国际站或中国大陆）使用：请在“设置”中检查密钥和区域。</translation>
    </message>
    <message>
        <source>The provider lists several tasks that could be this slot and cannot show their prompts, so none was chosen. Find the right one in the provider&apos;s console and attach its task id with Recover.</source>
        <translation>服务商列出了多个可能属于这个槽位的任务，但无法显示它们的提示词，因此没有选择任何一个。请在服务商控制台找到正确的任务，并用“恢复”关联其任务 ID。</translation>
    </message>
    <message>
        <source>The provider did not confirm that task id, so nothing changed. Check the id in the provider&apos;s console.</source>
        <translation>服务商没有确认这个任务 ID，因此没有任何改变。请在服务商控制台核对 ID。</translation>
    </message>
    <message>
        <source>The provider&apos;s task list did not answer, so nothing changed. Try again in a moment.</source>
        <translation>服务商的任务列表没有响应，因此没有任何改变。请稍后重试。</translation>
    </message>
    <message>
        <source>Your MiniMax plan&apos;s allowance is used up for now. Try again later, or raise the plan&apos;s limit in the MiniMax console.</source>
        <translation>你的 MiniMax 套餐额度暂时已用完。请稍后再试，或在 MiniMax 控制台提高套餐限额。</translation>
    </message>
    <message>
        <source>This model is not part of your MiniMax plan. Choose another model.</source>
        <translation>你的 MiniMax 套餐不包含这个模型。请选择其他模型。</translation>
    </message>
    <message>
        <source>The provider did not accept these settings. Check the model, duration, resolution and input images.</source>
        <translation>服务商不接受这些设置。请检查模型、时长、分辨率和输入图片。</translation>
    </message>
    <message>
        <source>The MiniMax account needs real-name verification before it can generate.</source>
        <translation>MiniMax 账户需要先完成实名认证才能生成。</translation>
    </message>
    <message>
        <source>The prompt contains characters the provider does not accept. Remove unusual symbols and try again.</source>
        <translation>提示词中含有服务商不接受的字符。请删除特殊符号后重试。</translation>
    </message>
    <message>
        <source>The prompt is too long for the provider. Shorten it and try again.</source>
        <translation>提示词超出服务商的长度限制。请缩短后重试。</translation>
    </message>
    <message>
        <source>The request never left this computer, so nothing was made or billed. Check the network connection, then create again.</source>
        <translation>请求没有离开这台电脑，因此没有生成任何内容，也没有计费。请检查网络连接后再创建。</translation>
    </message>
    <message>
        <source>The request left, but the connection broke before the provider&apos;s answer arrived. The task may exist at the provider: look it up, or declare the slot failed if you are sure it does not.</source>
        <translation>请求已发出，但在服务商答复到达前连接中断。服务商处可能已有这个任务：请查找它；如果确定不存在，可以声明槽位失败。</translation>
    </message>
    <message>
        <source>The request left, but no answer came back in time. The task may exist at the provider: look it up, or declare the slot failed if you are sure it does not.</source>
        <translation>请求已发出，但没有及时收到答复。服务商处可能已有这个任务：请查找它；如果确定不存在，可以声明槽位失败。</translation>
    </message>
    <message>
        <source>Slate was closed while the request was being sent. The task may exist at the provider: look it up, or declare the slot failed if you are sure it does not.</source>
        <translation>发送请求时 Slate 被关闭了。服务商处可能已有这个任务：请查找它；如果确定不存在，可以声明槽位失败。</translation>
    </message>
    <message>
        <source>The provider&apos;s answer could not be read, so Slate cannot tell whether the task was made. Use Recover to settle it.</source>
        <translation>服务商的答复无法读取，Slate 无法判断任务是否已创建。请用“恢复”来确认。</translation>
    </message>
    <message>
        <source>Something went wrong inside Slate after the request was sent, so Slate cannot tell whether the task was made. Use Recover to settle it.</source>
        <translation>请求发出后 Slate 内部出错，无法判断任务是否已创建。请用“恢复”来确认。</translation>
    </message>
    <message>
        <source>The result was made and billed, but it could not be saved on this computer (is the disk full?).</source>
        <translation>结果已生成并已计费，但无法保存到这台电脑上（磁盘满了吗？）。</translation>
    </message>
    <message>
        <source>The provider refused the request, so nothing was made. The details say why.</source>
        <translation>服务商拒绝了这个请求，因此没有生成任何内容。详情中说明了原因。</translation>
    </message>
    <message>
        <source>The provider answered with a status Slate does not know, so Slate stopped here and downloaded nothing. Ask the provider again later.</source>
        <translation>服务商返回了 Slate 不认识的状态，因此 Slate 停在这里，没有下载任何内容。请稍后再向服务商查询。</translation>
    </message>
    <message>
        <source>The provider said the task finished but delivered no file.</source>
        <translation>服务商表示任务已完成，但没有交付文件。</translation>
    </message>
    <message>
        <source>The downloaded file did not pass Slate&apos;s check (it does not open as a picture or a video). Download it again with Recover.</source>
        <translation>下载的文件没有通过 Slate 的校验（无法作为图片或视频打开）。请用“恢复”重新下载。</translation>
    </message>
    <message>
        <source>The provider reports that the task failed.</source>
        <translation>服务商报告任务失败。</translation>
    </message>
    <message>
        <source>The provider had an internal problem with this request.</source>
        <translation>服务商处理这个请求时出现了内部问题。</translation>
    </message>
    <message>
        <source>This slot was declared failed. The reason given: %1</source>
        <translation>这个槽位已被声明为失败。给出的原因：%1</translation>
    </message>
    <message>
        <source>There is no provider task to ask about, because the create&apos;s answer never came back. Use Recover: look the task up at the provider, attach its task id from the provider&apos;s console, or declare the slot failed.</source>
        <translation>创建请求的答复没有回来，因此没有可以查询的服务商任务。请使用“恢复”：在服务商处查找任务、关联服务商控制台中的任务 ID，或声明槽位失败。</translation>
    </message>
    <message>
        <source>There is no provider task to ask about, because the create&apos;s answer never came back. Use Recover: attach its task id from the provider&apos;s console, or declare the slot failed.</source>
        <translation>创建请求的答复没有回来，因此没有可以查询的服务商任务。请使用“恢复”：关联服务商控制台中的任务 ID，或声明槽位失败。</translation>
    </message>
    <message>
        <source>MiniMax cannot be asked about image tasks. When you are sure the images were not made, use Recover to declare the slot failed.</source>
        <translation>MiniMax 不支持查询图片任务。确定图片没有生成时，请用“恢复”声明槽位失败。</translation>
    </message>
    <message>
        <source>The provider lists no task that matches this slot. If you find it in the provider&apos;s console, attach its task id with Recover.</source>
        <translation>服务商的任务列表中没有与这个槽位匹配的任务。如果你在服务商控制台找到了它，请用“恢复”关联其任务 ID。</translation>
    </message>
    <message>
        <source>Today&apos;s quota is used up, so nothing was sent. It starts again tomorrow, or can be raised in Settings.</source>
        <translation>今日配额已用完，因此没有发送。明天会重新计算，也可以在“设置”中提高。</translation>
    </message>
    <message>
        <source>This would go over today&apos;s budget, so nothing was sent. The budget can be changed in Settings.</source>
        <translation>这会超出今日预算，因此没有发送。可以在“设置”中修改预算。</translation>
    </message>
    <message>
        <source>The slot store is busy with another Slate right now. Try again in a moment.</source>
        <translation>槽位存储正被另一个 Slate 占用。请稍后重试。</translation>
    </message>
    <message>
        <source>The media files are no longer on this computer. Use Recover to download them again.</source>
        <translation>媒体文件已不在这台电脑上。请用“恢复”重新下载。</translation>
    </message>
    <message>
        <source>This slot does not exist (any more) for this team and designer.</source>
        <translation>对这个团队和设计师来说，这个槽位不存在（或已不存在）。</translation>
    </message>
    <message>
        <source>The task is still running; its media can be exported once it is done.</source>
        <translation>任务仍在进行中；完成后才能导出媒体。</translation>
    </message>
    <message>
        <source>Something went wrong inside Slate. The details below and in the log say what.</source>
        <translation>Slate 内部出了问题。下方详情和日志中有具体说明。</translation>
    </message>
    <message>
        <source>The provider could not be reached, so nothing was sent. Check the network connection, then try again.</source>
        <translation>无法连接服务商，因此没有发送任何内容。请检查网络连接，然后重试。</translation>
    </message>
    <message>
        <source>The disk that holds Slate&apos;s slots is full, so this could not be saved. Nothing stored was lost; free some space, then try again.</source>
        <translation>存放 Slate 槽位的磁盘已满，因此无法保存。已存储的内容没有丢失；请释放一些空间，然后重试。</translation>
    </message>
    <message>
        <source>The system&apos;s password store is not available, so the API key cannot be kept. Set the key in the environment instead (see Settings).</source>
        <translation>系统密码存储不可用，无法保存 API 密钥。请改为在环境变量中设置密钥（见“设置”）。</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>%1 files</source>
        <translation>%1 个文件</translation>
    </message>
    <message>
        <source>%1 input files uploaded</source>
        <translation>已上传 %1 个输入文件</translation>
    </message>
    <message>
        <source>nothing was made; sending again in %1 s</source>
        <translation>尚未生成；%1 秒后重新发送</translation>
    </message>
    <message>
        <source>not billed</source>
        <translation>未计费</translation>
    </message>
    <message>
        <source>the result is safe; next try in %1 s</source>
        <translation>结果不会丢失；%1 秒后重试</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图片</translation>
    </message>
    <message>
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <source>1 input file uploaded</source>
        <translation>已上传 1 个输入文件</translation>
    </message>
    <message>
        <source>this cannot be used with these settings.</source>
        <translation>在当前设置下无法使用。</translation>
    </message>
    <message>
        <source>{model} needs this.</source>
        <translation>{model} 需要填写此项。</translation>
    </message>
    <message>
        <source>{count} characters; the limit is {limit}. Shorten it a little.</source>
        <translation>共 {count} 个字符，上限为 {limit}。请稍作删减。</translation>
    </message>
    <message>
        <source>type a whole number.</source>
        <translation>请输入整数。</translation>
    </message>
    <message>
        <source>choose a number from {low} to {high}.</source>
        <translation>请选择 {low} 到 {high} 之间的数字。</translation>
    </message>
    <message>
        <source>{model} does not offer {value}; choose another.</source>
        <translation>{model} 不提供 {value}，请另选。</translation>
    </message>
    <message>
        <source>{model} does not take this; remove it or choose another model.</source>
        <translation>{model} 不接受此项：请移除，或换一个模型。</translation>
    </message>
    <message>
        <source>a last frame needs a first frame: add the first frame too.</source>
        <translation>尾帧需要配合首帧：请同时添加首帧。</translation>
    </message>
    <message>
        <source>frames and references don&apos;t mix: use one or the other.</source>
        <translation>帧与参考素材不能同时使用：请二选一。</translation>
    </message>
    <message>
        <source>choose a file, or paste a web address that starts with https://.</source>
        <translation>请选择文件，或粘贴以 https:// 开头的网址。</translation>
    </message>
    <message>
        <source>only secure web addresses work: use https:// instead of http://.</source>
        <translation>只能使用安全网址：请用 https:// 代替 http://。</translation>
    </message>
    <message>
        <source>{host} cannot be reached by the provider: use a public web address, or choose the file.</source>
        <translation>服务商无法访问 {host}：请使用公开网址，或直接选择文件。</translation>
    </message>
    <message>
        <source>this picture was not read yet: choose it again.</source>
        <translation>这张图片尚未读取：请重新选择。</translation>
    </message>
    <message>
        <source>{name} is {kind}; this takes {wanted}.</source>
        <translation>{name} 是{kind}，此处需要{wanted}。</translation>
    </message>
    <message>
        <source>{name} is a {format} file; use {allowed}.</source>
        <translation>{name} 是 {format} 文件，请使用 {allowed}。</translation>
    </message>
    <message>
        <source>{name} is encoded as {codec}; use {allowed}.</source>
        <translation>{name} 的编码为 {codec}，请使用 {allowed}。</translation>
    </message>
    <message>
        <source>{name} is {size} MB; the limit is {limit} MB.</source>
        <translation>{name} 为 {size} MB，上限为 {limit} MB。</translation>
    </message>
    <message>
        <source>{name} is {width}×{height} px; each side must be {low}–{high} px.</source>
        <translation>{name} 为 {width}×{height} 像素，每边须在 {low}–{high} 像素之间。</translation>
    </message>
    <message>
        <source>{name} is {width}×{height} px; its short side must be more than {low} px.</source>
        <translation>{name} 为 {width}×{height} 像素，短边须大于 {low} 像素。</translation>
    </message>
    <message>
        <source>{name} is too wide or too tall (width/height {aspect}); use a shape from {low} to {high}.</source>
        <translation>{name} 过宽或过高（宽高比 {aspect}），请使用 {low} 到 {high} 之间的画幅。</translation>
    </message>
    <message>
        <source>{name} lasts {seconds} s; each clip must last {low}–{high} s.</source>
        <translation>{name} 时长 {seconds} 秒，每段须为 {low}–{high} 秒。</translation>
    </message>
    <message>
        <source>{name} plays {fps} frames a second; use {low}–{high}.</source>
        <translation>{name} 的帧率为每秒 {fps} 帧，请使用 {low}–{high}。</translation>
    </message>
    <message>
        <source>{count} given; at most {limit}. Remove some.</source>
        <translation>已添加 {count} 个，最多 {limit} 个。请移除一些。</translation>
    </message>
    <message>
        <source>{seconds} s in total; at most {limit} s. Use shorter clips.</source>
        <translation>总时长 {seconds} 秒，最多 {limit} 秒。请使用更短的片段。</translation>
    </message>
    <message>
        <source>reference audio needs a reference picture or video too.</source>
        <translation>参考音频需要同时配有参考图片或参考视频。</translation>
    </message>
    <message>
        <source>“adaptive” takes its shape from a picture or a video; choose a fixed ratio.</source>
        <translation>“自适应”需要依据图片或视频确定画幅，请选择固定比例。</translation>
    </message>
    <message>
        <source>the inputs together are {size} MB; one request takes at most {limit} MB. Use smaller files.</source>
        <translation>输入素材合计 {size} MB，单次请求最多 {limit} MB。请使用更小的文件。</translation>
    </message>
    <message>
        <source>{name} cannot be read as {wanted}.</source>
        <translation>{name} 无法作为{wanted}读取。</translation>
    </message>
    <message>
        <source>{name} is not a file on this computer, nor a web address that starts with https://.</source>
        <translation>{name} 不是本机上的文件，也不是以 https:// 开头的网址。</translation>
    </message>
    <message>
        <source>{model} needs a prompt, even with a first frame: describe the shot.</source>
        <translation>即使有首帧，{model} 也需要提示词：请描述这个镜头。</translation>
    </message>
    <message>
        <source>{model} starts from a picture: choose a first frame.</source>
        <translation>{model} 需要从图片开始：请选择首帧。</translation>
    </message>
    <message>
        <source>{model} needs a picture of the subject.</source>
        <translation>{model} 需要一张主体图片。</translation>
    </message>
    <message>
        <source>this is needed.</source>
        <translation>此项必填。</translation>
    </message>
    <message>
        <source>{model} makes {value} only from a first frame: add one, or choose another.</source>
        <translation>{model} 只有在提供首帧时才能生成 {value}：请添加首帧，或另选。</translation>
    </message>
    <message>
        <source>a picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>a video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>a sound clip</source>
        <translation>音频片段</translation>
    </message>
    <message>
        <source>This file</source>
        <translation>此文件</translation>
    </message>
    <message>
        <source>Not added — %1</source>
        <translation>未添加——%1</translation>
    </message>
    <message>
        <source>{model} does not offer {value}; choose {instead}.</source>
        <translation>{model} 不提供 {value}，请选择 {instead}。</translation>
    </message>
    <message>
        <source>{count} characters; it must have {low} to {high} characters.</source>
        <translation>共 {count} 个字符，须为 {low} 到 {high} 个字符。</translation>
    </message>
    <message>
        <source>“{bad}” cannot be used here; use only {allowed}.</source>
        <translation>这里不能使用“{bad}”，只能使用 {allowed}。</translation>
    </message>
    <message>
        <source>name the slot first: its project, date and scene.</source>
        <translation>请先为槽位命名：填写项目、日期和场景。</translation>
    </message>
    <message>
        <source>Create stays off: this slot&apos;s earlier create has no known outcome, and creating again could pay twice. Use Recover to settle it.</source>
        <translation>“创建”保持关闭：这个槽位之前的创建结果未知，再次创建可能会重复付费。请用“恢复”来确认它。</translation>
    </message>
    <message>
        <source>The provider lists a task that fits this slot, but another of your slots that is still unknown could have made it too, so Slate attached nothing. If the provider&apos;s console shows it is this slot&apos;s task, attach its task id with Recover.</source>
        <translation>服务商列出了一个符合此槽位的任务，但你的另一个仍处于未知状态的槽位也可能创建了它，因此 Slate 没有关联任何任务。如果服务商控制台显示它属于此槽位，请在“恢复”中关联它的任务 ID。</translation>
    </message>
    <message>
        <source>%1 image(s)</source>
        <translation>%1 张图片</translation>
    </message>
    <message>
        <source>%1 file(s)</source>
        <translation>%1 个文件</translation>
    </message>
    <message>
        <source>%1 input file(s) uploaded</source>
        <translation>已上传 %1 个输入文件</translation>
    </message>
    <message>
        <source>sound</source>
        <translation>声音</translation>
    </message>
    <message>
        <source>The request left, but the connection broke before the answer arrived. MiniMax keeps no record of this kind of create that Slate could look up: declare the slot failed when you are sure.</source>
        <translation>请求已发出，但在回应到达前连接中断了。MiniMax 不会为这类创建留下 Slate 可以查找的记录：确定之后，请将此槽位标记为失败。</translation>
    </message>
    <message>
        <source>The request left, but no answer came back in time. MiniMax keeps no record of this kind of create that Slate could look up: declare the slot failed when you are sure.</source>
        <translation>请求已发出，但没有及时收到回应。MiniMax 不会为这类创建留下 Slate 可以查找的记录：确定之后，请将此槽位标记为失败。</translation>
    </message>
    <message>
        <source>Slate was closed while the request was being sent. MiniMax keeps no record of this kind of create that Slate could look up: declare the slot failed when you are sure.</source>
        <translation>发送请求时 Slate 被关闭了。MiniMax 不会为这类创建留下 Slate 可以查找的记录：确定之后，请将此槽位标记为失败。</translation>
    </message>
    <message>
        <source>{voice} is gone: MiniMax deletes a designed voice unused for {days} days, and this one was deleted after {deleted_after}. Design it again or choose another voice.</source>
        <translation>{voice} 已不存在：MiniMax 会删除连续 {days} 天未使用的设计音色，此音色已在 {deleted_after} 之后删除。请重新设计，或选择其他音色。</translation>
    </message>
</context>
<context>
    <name>Unusable</name>
    <message>
        <source>Slate cannot use its folder</source>
        <translation>Slate 无法使用它的文件夹</translation>
    </message>
    <message>
        <source>Slate keeps its slots and results in %1, but that is a file, not a folder.</source>
        <translation>Slate 把槽位和结果保存在 %1，但那是一个文件，不是文件夹。</translation>
    </message>
    <message>
        <source>Slate cannot make its folder %1: a part of that path is a file.</source>
        <translation>Slate 无法创建文件夹 %1：该路径中有一部分是文件。</translation>
    </message>
    <message>
        <source>Slate cannot write in its folder %1.</source>
        <translation>Slate 无法写入它的文件夹 %1。</translation>
    </message>
    <message>
        <source>The disk that holds %1 is full. Nothing stored was lost.</source>
        <translation>存放 %1 的磁盘已满。已保存的内容没有丢失。</translation>
    </message>
    <message>
        <source>The file %1 is not a Slate store.</source>
        <translation>文件 %1 不是 Slate 的存储。</translation>
    </message>
    <message>
        <source>Slate cannot open its store %1.</source>
        <translation>Slate 无法打开它的存储 %1。</translation>
    </message>
    <message>
        <source>The store %1 is a folder, not a Slate store file.</source>
        <translation>存储 %1 是一个文件夹，不是 Slate 的存储文件。</translation>
    </message>
    <message>
        <source>Choose another folder to continue there, or quit and set it right (for a full disk: free some space).</source>
        <translation>选择另一个文件夹在那里继续，或者退出后修正问题（磁盘已满时：请腾出一些空间）。</translation>
    </message>
    <message>
        <source>Choose another folder…</source>
        <translation>选择另一个文件夹…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>A folder for Slate's slots and results</source>
        <translation>用于保存 Slate 槽位和结果的文件夹</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / 共 %2</translation>
    </message>
</context>
<context>
    <name>EnhanceConfirm</name>
    <message>
        <source>Enhance prompt</source>
        <translation>优化提示词</translation>
    </message>
    <message>
        <source>Let MiniMax-H3 enhance this prompt?</source>
        <translation>让 MiniMax-H3 优化这条提示词？</translation>
    </message>
    <message>
        <source>The enhanced prompt is kept as the slot %1 and shown as a suggestion: you accept or edit it. Asking again for the same prompt costs nothing.</source>
        <translation>优化后的提示词保存为槽位 %1，并作为建议显示：由你采用或修改。对同一提示词再次请求不会再收费。</translation>
    </message>
    <message>
        <source>Enhance</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>EnhancePrompt</name>
    <message>
        <source>MiniMax bills prompt enhancement by tokens and publishes no price for it. Slate records what the provider reports.</source>
        <translation>MiniMax 按词元用量对提示词优化计费，但未公布价格。Slate 会记录提供方报告的费用。</translation>
    </message>
    <message>
        <source>Price: about %1.</source>
        <translation>价格：约 %1。</translation>
    </message>
    <message>
        <source>Enhance prompt…</source>
        <translation>优化提示词…</translation>
    </message>
    <message>
        <source>Enhance prompt</source>
        <translation>优化提示词</translation>
    </message>
    <message>
        <source>Suggested by MiniMax-H3 — edit it if you like, then use it</source>
        <translation>MiniMax-H3 的建议 —— 可先修改，再采用</translation>
    </message>
    <message>
        <source>Enhanced prompt</source>
        <translation>优化后的提示词</translation>
    </message>
    <message>
        <source>Use this prompt</source>
        <translation>采用此提示词</translation>
    </message>
    <message>
        <source>Keep mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>This slot&apos;s prompt is fixed.</source>
        <translation>此槽位的提示词已固定。</translation>
    </message>
    <message>
        <source>Name the slot first: the enhanced prompt is kept under its name.</source>
        <translation>请先为槽位命名：优化后的提示词会以它的名称保存。</translation>
    </message>
    <message>
        <source>MiniMax-H3 rewrites the prompt with more detail (a paid step; the price is shown first)</source>
        <translation>MiniMax-H3 会把提示词改写得更详细（付费步骤；会先显示价格）</translation>
    </message>
    <message>
        <source>MiniMax-H3 is enhancing the prompt…</source>
        <translation>MiniMax-H3 正在优化提示词…</translation>
    </message>
    <message>
        <source>No enhanced prompt came back.</source>
        <translation>没有收到优化后的提示词。</translation>
    </message>
</context>
<context>
    <name>H3ImageFields</name>
    <message>
        <source>Aspect ratio and area</source>
        <translation>宽高比与面积</translation>
    </message>
    <message>
        <source>Exact size</source>
        <translation>精确尺寸</translation>
    </message>
    <message>
        <source>Aspect ratio</source>
        <translation>宽高比</translation>
    </message>
    <message>
        <source>Area</source>
        <translation>面积</translation>
    </message>
    <message>
        <source>Size in pixels</source>
        <translation>像素尺寸</translation>
    </message>
    <message>
        <source>Number of images</source>
        <translation>图片数量</translation>
    </message>
    <message>
        <source>Width × height in pixels, e.g. 2048x1152 (aspect 1:3 to 3:1).</source>
        <translation>宽 × 高（像素），例如 2048x1152（宽高比 1:3 至 3:1）。</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Ratio, area</source>
        <translation>比例、面积</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图片数</translation>
    </message>
    <message>
        <source>References</source>
        <translation>参考图</translation>
    </message>
</context>
<context>
    <name>ImageReferences</name>
    <message>
        <source>Reference images</source>
        <translation>参考图片</translation>
    </message>
    <message>
        <source>%1 of %2 pictures · with any, the request is an edit of them</source>
        <translation>%1 / %2 张图片 · 有参考图时，请求即为对它们的编辑</translation>
    </message>
</context>
<context>
    <name>Make2K</name>
    <message>
        <source>MiniMax publishes no price for a 2K regeneration. Slate records what the provider reports once it is done.</source>
        <translation>MiniMax 未公布 2K 重新生成的价格。完成后 Slate 会记录提供方报告的费用。</translation>
    </message>
    <message>
        <source>Price: about %1.</source>
        <translation>价格：约 %1。</translation>
    </message>
    <message>
        <source>Make 2K</source>
        <translation>生成 2K</translation>
    </message>
    <message>
        <source>Make a 2K version of %1?</source>
        <translation>为 %1 生成 2K 版本？</translation>
    </message>
    <message>
        <source>MiniMax renders the finished video again at 2K as a new slot, %1. %2 stays exactly as it is; its history links to the new slot.</source>
        <translation>MiniMax 会以 2K 重新渲染这段已完成的视频，作为新槽位 %1。%2 保持原样不变；它的历史记录会链接到新槽位。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>SoundFields</name>
    <message>
        <source>Music</source>
        <translation>音乐</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Style</source>
        <translation>风格</translation>
    </message>
    <message>
        <source>The song&apos;s style: genre, mood, instruments, tempo…</source>
        <translation>歌曲的风格：曲风、情绪、乐器、节奏……</translation>
    </message>
    <message>
        <source>Lyrics</source>
        <translation>歌词</translation>
    </message>
    <message>
        <source>[Verse]
The first lines of the song…
[Chorus]
The part everyone sings</source>
        <translation>[Verse]
歌曲开头的几句……
[Chorus]
大家一起唱的部分</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>插入</translation>
    </message>
    <message>
        <source>Insert %1 at the cursor</source>
        <translation>在光标处插入 %1</translation>
    </message>
    <message>
        <source>A voice, or a voice id</source>
        <translation>选择音色，或输入音色 ID</translation>
    </message>
    <message>
        <source>More tags</source>
        <translation>更多标签</translation>
    </message>
    <message>
        <source>Instrumental (no singing)</source>
        <translation>纯音乐（无人声）</translation>
    </message>
    <message>
        <source>Let MiniMax write the lyrics from the style</source>
        <translation>让 MiniMax 按风格写歌词</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Text to speak</source>
        <translation>要朗读的文本</translation>
    </message>
    <message>
        <source>The words to speak. A pause: &lt;#0.5#&gt;</source>
        <translation>要朗读的文字。停顿写作：&lt;#0.5#&gt;</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>语速</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>The provider&apos;s voice list could not be read: these are MiniMax&apos;s documented system voices.</source>
        <translation>无法读取服务商的音色列表：这里列出的是 MiniMax 文档中的系统音色。</translation>
    </message>
    <message>
        <source>Instrumental</source>
        <translation>纯音乐</translation>
    </message>
    <message>
        <source>Longer than %1 characters: made as a long task at MiniMax (asynchronous). Slate asks until it is ready and fetches the file at once (MiniMax keeps it 9 hours).</source>
        <translation>超过 %1 个字符：在 MiniMax 作为长任务生成（异步）。Slate 会一直查询到完成，并立即取回文件（MiniMax 只保留 9 小时）。</translation>
    </message>
    <message>
        <source>Up to %1 characters: read at once (synchronous), the sound comes back with the answer. Longer texts are made as a long task.</source>
        <translation>不超过 %1 个字符：立即朗读（同步），声音随回复一起返回。更长的文本会作为长任务生成。</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <source>%1 / %2 characters</source>
        <translation>%1 / %2 个字符</translation>
    </message>
    <message>
        <source>Describe the song&apos;s style to create it.</source>
        <translation>描述歌曲的风格，即可创建。</translation>
    </message>
    <message>
        <source>Write the words to speak to create the voice line.</source>
        <translation>写下要朗读的文字，即可创建语音。</translation>
    </message>
    <message>
        <source>More structure tags for the lyrics</source>
        <translation>更多歌词结构标签</translation>
    </message>
    <message>
        <source>MiniMax makes a new voice from a description (a paid step kept as a slot; the price is shown first)</source>
        <translation>MiniMax 按描述做出一个新声音（付费步骤，保存为槽位；先显示价格）</translation>
    </message>
    <message>
        <source>Design a voice</source>
        <translation>设计声音</translation>
    </message>
    <message>
        <source>Design a voice…</source>
        <translation>设计声音…</translation>
    </message>
    <message>
        <source>%1 (made outside Slate)</source>
        <translation>%1（在 Slate 之外制作）</translation>
    </message>
    <message>
        <source>Designed voice, made outside Slate.</source>
        <translation>设计的声音，在 Slate 之外制作。</translation>
    </message>
    <message>
        <source>%1 — deleted after %2 if unused</source>
        <translation>%1 — 若未使用，%2 后删除</translation>
    </message>
    <message>
        <source>Not used by a voice line yet.</source>
        <translation>尚未被任何语音使用。</translation>
    </message>
    <message>
        <source>Designed voice, slot %1.</source>
        <translation>设计的声音，槽位 %1。</translation>
    </message>
    <message>
        <source>Made %1.</source>
        <translation>制作于 %1。</translation>
    </message>
    <message>
        <source>Last used by a voice line %1.</source>
        <translation>最近一次被语音使用：%1。</translation>
    </message>
    <message>
        <source>MiniMax deletes it after %1 if no voice line uses it.</source>
        <translation>若没有语音使用它，MiniMax 会在 %1 后删除。</translation>
    </message>
    <message>
        <source>Hear it</source>
        <translation>试听</translation>
    </message>
    <message>
        <source>Hear this voice</source>
        <translation>试听这个声音</translation>
    </message>
    <message>
        <source>Choose a voice to hear it.</source>
        <translation>选择一个声音即可试听。</translation>
    </message>
    <message>
        <source>Plays the trial recording MiniMax made with this voice: nothing to pay.</source>
        <translation>播放 MiniMax 用这个声音制作的试听录音：无需付费。</translation>
    </message>
    <message>
        <source>Plays this voice&apos;s preview again: heard before, it pays nothing.</source>
        <translation>再次播放这个声音的试听：之前已听过，无需再付费。</translation>
    </message>
    <message>
        <source>Hear it · %1</source>
        <translation>试听 · %1</translation>
    </message>
    <message>
        <source>Hear it · price unknown</source>
        <translation>试听 · 价格未知</translation>
    </message>
    <message>
        <source>Says a short line in this voice (“%1”) as a slot of its own, paid once; hearing it again pays nothing.</source>
        <translation>用这个声音说一小段话（“%1”），作为单独的槽位，只付一次费；再次试听无需付费。</translation>
    </message>
    <message>
        <source>Hearing…</source>
        <translation>试听中……</translation>
    </message>
    <message>
        <source>No sound came back to play.</source>
        <translation>没有可播放的声音返回。</translation>
    </message>
</context>
<context>
    <name>SoundView</name>
    <message>
        <source>▶ Play</source>
        <translation>▶ 播放</translation>
    </message>
    <message>
        <source>Play sound</source>
        <translation>播放声音</translation>
    </message>
    <message>
        <source>Sound playback is not available here: %1</source>
        <translation>此处无法播放声音：%1</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 暂停</translation>
    </message>
    <message>
        <source>Pause sound</source>
        <translation>暂停声音</translation>
    </message>
    <message>
        <source>instrumental</source>
        <translation>纯音乐</translation>
    </message>
    <message>
        <source>lyrics by MiniMax</source>
        <translation>MiniMax 作词</translation>
    </message>
    <message>
        <source>with lyrics</source>
        <translation>有歌词</translation>
    </message>
    <message>
        <source>Song</source>
        <translation>歌曲</translation>
    </message>
    <message>
        <source>Voice line</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <source>Designed voice</source>
        <translation>设计的声音</translation>
    </message>
</context>
<context>
    <name>WaveformView</name>
    <message>
        <source>Waveform: click to play from there</source>
        <translation>波形：点击即从该处播放</translation>
    </message>
</context>
<context>
    <name>TidyBar</name>
    <message>
        <source>Download again</source>
        <translation>重新下载</translation>
    </message>
    <message>
        <source>The provider still has this result: download it and check it again. Never creates, never pays again.</source>
        <translation>服务商仍保留此结果：重新下载并再次校验。不会新建，也不会再次付费。</translation>
    </message>
    <message>
        <source>Tidy up</source>
        <translation>整理</translation>
    </message>
    <message>
        <source>Tidy up this slot</source>
        <translation>整理此槽位</translation>
    </message>
    <message>
        <source>Hide slot</source>
        <translation>隐藏槽位</translation>
    </message>
    <message>
        <source>Delete local media…</source>
        <translation>删除本地媒体…</translation>
    </message>
    <message>
        <source>Media removed here: %1 file(s), %2, deleted from this computer.</source>
        <translation>本机媒体已移除：%1 个文件（%2）已从这台电脑删除。</translation>
    </message>
    <message>
        <source>The provider has nothing left to download again; the record keeps each file's SHA-256.</source>
        <translation>服务商已没有可重新下载的内容；记录中保留每个文件的 SHA-256。</translation>
    </message>
    <message>
        <source>Hidden from the browser.</source>
        <translation>已在浏览器中隐藏。</translation>
    </message>
    <message>
        <source>Show in the browser again</source>
        <translation>重新在浏览器中显示</translation>
    </message>
    <message>
        <source>Hidden from the browser; “Show hidden” finds it.</source>
        <translation>已在浏览器中隐藏；勾选“显示已隐藏”即可找到。</translation>
    </message>
    <message>
        <source>Shown in the browser again.</source>
        <translation>已重新在浏览器中显示。</translation>
    </message>
    <message>
        <source>Delete local media</source>
        <translation>删除本地媒体</translation>
    </message>
    <message>
        <source>Delete %1 file(s), %2 in all, from this computer?</source>
        <translation>从这台电脑删除 %1 个文件，共 %2？</translation>
    </message>
    <message>
        <source>Only the files of %1 go. The slot, its history and its cost stay, and its RequestId stays used: creating it again is never paid twice.</source>
        <translation>只删除 %1 的文件。槽位、历史和费用都会保留，其 RequestId 仍视为已使用：再次创建绝不会重复付费。</translation>
    </message>
    <message>
        <source>Delete media</source>
        <translation>删除媒体</translation>
    </message>
    <message>
        <source>Deleted %1 file(s), %2, from this computer. The slot stays.</source>
        <translation>已从这台电脑删除 %1 个文件（%2）。槽位保留。</translation>
    </message>
</context>
<context>
    <name>ShortcutOverlay</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Typing in a field types the key; these work everywhere else. F, X and the digits mark the result on screen.</source>
        <translation>在输入框中按键只会输入字符；在其他地方这些快捷键都可用。F、X 和数字键标记屏幕上的结果。</translation>
    </message>
</context>
<context>
    <name>PromptRecall</name>
    <message>
        <source>Earlier prompts</source>
        <translation>以前的提示词</translation>
    </message>
    <message>
        <source>Search your earlier prompts…</source>
        <translation>搜索你以前的提示词…</translation>
    </message>
    <message>
        <source>Search your earlier prompts</source>
        <translation>搜索你以前的提示词</translation>
    </message>
    <message>
        <source>Insert into the draft</source>
        <translation>插入草稿</translation>
    </message>
    <message>
        <source>New slot with it</source>
        <translation>用它新建槽位</translation>
    </message>
    <message>
        <source>The slot on screen is fixed; start a new slot with the prompt instead.</source>
        <translation>当前槽位已固定；请改用此提示词新建槽位。</translation>
    </message>
    <message>
        <source>used %1×</source>
        <translation>用过 %1 次</translation>
    </message>
    <message>
        <source>No earlier prompt contains “%1”.</source>
        <translation>以前的提示词中没有包含“%1”的。</translation>
    </message>
    <message>
        <source>No earlier prompts yet: they appear here once you create slots.</source>
        <translation>还没有以前的提示词：创建槽位后会出现在这里。</translation>
    </message>
</context>
<context>
    <name>Picks</name>
    <message>
        <source>Favourite</source>
        <translation>收藏</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>弃用</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>No rating</source>
        <translation>无评分</translation>
    </message>
    <message>
        <source>1 star</source>
        <translation>1 星</translation>
    </message>
    <message>
        <source>%1 stars</source>
        <translation>%1 星</translation>
    </message>
    <message>
        <source>Add to board…</source>
        <translation>加入看板…</translation>
    </message>
    <message>
        <source>Any pick</source>
        <translation>全部标记</translation>
    </message>
    <message>
        <source>Favourites</source>
        <translation>收藏</translation>
    </message>
    <message>
        <source>Hide rejects</source>
        <translation>隐藏弃用</translation>
    </message>
    <message>
        <source>Rejects</source>
        <translation>弃用</translation>
    </message>
    <message>
        <source>Any rating</source>
        <translation>全部评分</translation>
    </message>
    <message>
        <source>%1 or more</source>
        <translation>%1 及以上</translation>
    </message>
    <message>
        <source>Any board</source>
        <translation>全部看板</translation>
    </message>
    <message>
        <source>Pick filter</source>
        <translation>标记筛选</translation>
    </message>
    <message>
        <source>Rating filter</source>
        <translation>评分筛选</translation>
    </message>
    <message>
        <source>Board filter</source>
        <translation>看板筛选</translation>
    </message>
</context>
<context>
    <name>BoardChooser</name>
    <message>
        <source>Add to board</source>
        <translation>加入看板</translation>
    </message>
    <message>
        <source>A board's name, e.g. Hero shots</source>
        <translation>看板名称，例如：主视觉</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>看板</translation>
    </message>
    <message>
        <source>Choose a board or type a new name: a new board is made.</source>
        <translation>选择一个看板，或输入新名称以新建看板。</translation>
    </message>
</context>
<context>
    <name>TwinConfirm</name>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>unknown — the provider may be making it</source>
        <translation>结果未知——服务商可能正在生成</translation>
    </message>
    <message>
        <source>being made now</source>
        <translation>正在生成</translation>
    </message>
    <message>
        <source>the price is unknown</source>
        <translation>价格未知</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <source>Same settings as %1</source>
        <translation>与 %1 设置相同</translation>
    </message>
    <message>
        <source>%1 already has exactly these settings (%2).</source>
        <translation>%1 已经用了完全相同的设置（%2）。</translation>
    </message>
    <message>
        <source>Creating %1 makes and pays for it again — %2.</source>
        <translation>创建 %1 会再生成一次并再付费——%2。</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>Create anyway</source>
        <translation>仍然创建</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>PricesDialog</name>
    <message>
        <source>%1 an image</source>
        <translation>%1 每张图片</translation>
    </message>
    <message>
        <source>%1 a second</source>
        <translation>%1 每秒</translation>
    </message>
    <message>
        <source>%1 a clip</source>
        <translation>%1 每段</translation>
    </message>
    <message>
        <source>%1 a song</source>
        <translation>%1 每首歌</translation>
    </message>
    <message>
        <source>%1 a million characters</source>
        <translation>%1 每百万字符</translation>
    </message>
    <message>
        <source>%1 a million tokens</source>
        <translation>%1 每百万 token</translation>
    </message>
    <message>
        <source>%1 a voice</source>
        <translation>%1 每个音色</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <source>%1 (yours)</source>
        <translation>%1（你的价格）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>input tokens</source>
        <translation>输入 token</translation>
    </message>
    <message>
        <source>output tokens</source>
        <translation>输出 token</translation>
    </message>
    <message>
        <source>%1, %2 s</source>
        <translation>%1，%2 秒</translation>
    </message>
    <message>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>What Slate counts each create at, for estimates, the daily budget and Spend. “about”: from sources other than MiniMax's price page. Give any model your own price — slots made earlier at an unknown price count at it too.</source>
        <translation>Slate 按这些价格估算每次创建、核对每日预算并统计花费。“约”：来自 MiniMax 价格页以外的来源。你可以为任何模型填写自己的价格——之前以未知价格创建的槽位也按它计算。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>For</source>
        <translation>计价单位</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Your price</source>
        <translation>你的价格</translation>
    </message>
    <message>
        <source>Use my price</source>
        <translation>使用我的价格</translation>
    </message>
    <message>
        <source>Use the table's price</source>
        <translation>使用价格表的价格</translation>
    </message>
    <message>
        <source>Prices are not available.</source>
        <translation>价格暂时无法读取。</translation>
    </message>
    <message>
        <source>Choose a price to give your own.</source>
        <translation>选择一行价格，填写你自己的价格。</translation>
    </message>
    <message>
        <source>Your price for %1, in %2:</source>
        <translation>你为 %1 设定的价格（%2）：</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
</context>
<context>
    <name>Voices</name>
    <message>
        <source>Expressive narrator</source>
        <translation>富有表现力的旁白（英语）</translation>
    </message>
    <message>
        <source>Graceful lady</source>
        <translation>优雅女士（英语）</translation>
    </message>
    <message>
        <source>Young woman</source>
        <translation>少女</translation>
    </message>
    <message>
        <source>Young man, fresh</source>
        <translation>青涩青年</translation>
    </message>
    <message>
        <source>News anchor (Mandarin)</source>
        <translation>新闻主播</translation>
    </message>
</context>
<context>
    <name>VoiceDesignDialog</name>
    <message>
        <source>Design a voice</source>
        <translation>设计一个声音</translation>
    </message>
    <message>
        <source>MiniMax makes a new voice from your description and reads the preview text with it. The voice is kept as a slot: asking again for the same voice costs nothing more.</source>
        <translation>MiniMax 按你的描述做出一个新声音，并用它朗读试听文本。这个声音保存为一个槽位：再次请求同一个声音不会再花钱。</translation>
    </message>
    <message>
        <source>Description of the voice</source>
        <translation>声音的描述</translation>
    </message>
    <message>
        <source>Who speaks and how: a warm, calm woman in her forties, unhurried, close</source>
        <translation>谁在说、怎么说：四十多岁的女性，温暖、平静、不急不慢，贴近话筒</translation>
    </message>
    <message>
        <source>Preview text</source>
        <translation>试听文本</translation>
    </message>
    <message>
        <source>The words the trial recording speaks</source>
        <translation>试听录音要朗读的文字</translation>
    </message>
    <message>
        <source>The voice slot's RequestId</source>
        <translation>声音槽位的 RequestId</translation>
    </message>
    <message>
        <source>MiniMax deletes a designed voice that no voice line uses for 7 days, and bills it when it is first used.</source>
        <translation>设计的声音连续 7 天没有被任何语音使用，MiniMax 就会删除它；首次使用时才计费。</translation>
    </message>
    <message>
        <source>Create voice</source>
        <translation>创建声音</translation>
    </message>
    <message>
        <source>Use this voice</source>
        <translation>使用这个声音</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Kept as slot</source>
        <translation>保存为槽位</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>RequestId</source>
        <translation>RequestId</translation>
    </message>
    <message>
        <source>MiniMax is designing the voice…</source>
        <translation>MiniMax 正在设计声音…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Describe the voice and write the words it reads to create it.</source>
        <translation>描述这个声音并写好它要朗读的文字，即可创建。</translation>
    </message>
    <message>
        <source>No voice came back.</source>
        <translation>没有返回声音。</translation>
    </message>
    <message>
        <source>%1 already holds a voice designed from another description. Nothing was sent and nothing was charged.</source>
        <translation>%1 已保存了一个按另一段描述设计的声音。没有发送任何内容，也没有计费。</translation>
    </message>
    <message>
        <source>This voice was designed before under this name: nothing was sent again.</source>
        <translation>这个名称下已经设计过这个声音：没有再次发送。</translation>
    </message>
    <message>
        <source>The voice is ready. Hear its trial, then use it for the voice line.</source>
        <translation>声音已做好。先听听试听录音，再把它用于语音。</translation>
    </message>
    <message>
        <source>Create it as %1 instead.</source>
        <translation>请改为以 %1 创建。</translation>
    </message>
    <message>
        <source>Trial recording of %1</source>
        <translation>%1 的试听录音</translation>
    </message>
    <message>
        <source>%1 owns this voice; its trial recording did not come back with the answer.</source>
        <translation>%1 拥有这个声音；它的试听录音没有随回复返回。</translation>
    </message>
</context>
</TS>
