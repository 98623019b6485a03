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
        <source>The media are verified and on disk (SHA-256 recorded). Export them, or start a New slot for a variation.</source>
        <translation>媒体已校验并保存到磁盘（已记录 SHA-256）。可以导出，或用“新槽位”做一个变体。</translation>
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
        <translation>这个 RequestId 已被占用</translation>
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
        <translation>新的 RequestId</translation>
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
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Write a prompt to start.</source>
        <translation>先写一段提示词。</translation>
    </message>
</context>
<context>
    <name>Event</name>
    <message>
        <source>slot claimed, create about to be sent</source>
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
</context>
<context>
    <name>FramePicker</name>
    <message>
        <source>https://… or choose a file</source>
        <translation>https://… 或选择文件</translation>
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
        <source>%1 (file, %2 KB)</source>
        <translation>%1（文件，%2 KB）</translation>
    </message>
    <message>
        <source>embedded image (%1 KB)</source>
        <translation>内嵌图片（%1 KB）</translation>
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
</context>
<context>
    <name>MainWindow</name>
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
        <source>Slot state</source>
        <translation>槽位状态</translation>
    </message>
    <message>
        <source>▦ Gallery</source>
        <translation>▦ 图库</translation>
    </message>
    <message>
        <source>Every result of the selection, as a grid (Ctrl+G)</source>
        <translation>以网格显示所选范围的全部成果 (Ctrl+G)</translation>
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
        <source>Gallery</source>
        <translation>图库</translation>
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
        <source>%1 image(s)</source>
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
        <source>Images (*.png *.jpg *.jpeg *.webp)</source>
        <translation>图片 (*.png *.jpg *.jpeg *.webp)</translation>
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
        <translation>RequestId</translation>
    </message>
</context>
<context>
    <name>ResultPane</name>
    <message>
        <source>Result and history</source>
        <extracomment>Events whose stored detail only repeats the event&apos;s name.</extracomment>
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
        <source>Nothing has happened in this slot yet.</source>
        <translation>这个槽位还没有任何记录。</translation>
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
        <translation>没有符合筛选条件的槽位。</translation>
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
</context>
<context>
    <name>SlotPane</name>
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
        <source>Exported %1 file(s).</source>
        <translation>已导出 %1 个文件。</translation>
    </message>
    <message>
        <source>(unnamed slot)</source>
        <translation>（未命名槽位）</translation>
    </message>
    <message>
        <source>This RequestId is already used (%1). &lt;a href=&quot;%2&quot;&gt;Open it&lt;/a&gt; — creating it with other parameters will be refused.</source>
        <translation>这个 RequestId 已被使用（%1）。&lt;a href=&quot;%2&quot;&gt;打开它&lt;/a&gt;——用其他参数创建会被拒绝。</translation>
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
        <source>⚠ Provider not answering: %1 task(s) retrying</source>
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
        <source>Team / designer</source>
        <translation>团队 / 设计师</translation>
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
        <translation>RequestId</translation>
    </message>
    <message>
        <source>No other result to compare with</source>
        <translation>没有可对比的其他成果</translation>
    </message>
    <message>
        <source>Use as first frame</source>
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
</context>
</TS>
